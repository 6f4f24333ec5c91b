import AppStoreClient
import AppStoreModels
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import StoreKeeperServer

/// `storekeeper retention`: Apple's Retention Messaging — `push` the setup, `test` the endpoint.
struct RetentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention", abstract: "Apple's Retention Messaging.",
        subcommands: [RetentionPushCommand.self, RetentionTestCommand.self])

    /// A client of Apple's API and the app's credentials, from the server's configuration file.
    static func client(config: String, bundleID: String) throws -> (AppStoreClient, AppStoreClient.Credentials) {
        let server = try ServerConfiguration.load(path: config, environment: [:])
        guard let app = server.apps.first(where: { $0.bundleID == bundleID }) else {
            throw CommandFailure("\(config) configures no app \(bundleID)")
        }
        let pem = try app.privateKeyPEM ?? app.privateKeyPath.map { try String(contentsOfFile: $0, encoding: .utf8) }
        guard let pem, let issuer = app.issuerID, let keyID = app.keyID else {
            throw CommandFailure("app \(app.bundleID) needs issuerID, keyID and privateKeyPath in \(config)")
        }
        let credentials = AppStoreClient.Credentials(
            issuerID: issuer, keyID: keyID, bundleID: app.bundleID,
            privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
        var clientConfiguration = AppStoreClient.Configuration()
        if let url = server.apple.serverAPIBaseURL { clientConfiguration.serverAPIBaseURL = url }
        if let url = server.apple.serverAPISandboxBaseURL ?? server.apple.serverAPIBaseURL {
            clientConfiguration.serverAPISandboxBaseURL = url
        }
        return (AppStoreClient(configuration: clientConfiguration, httpClient: HTTPClient.shared), credentials)
    }
}
