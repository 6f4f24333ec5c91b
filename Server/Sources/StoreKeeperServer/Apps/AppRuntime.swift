import AppStoreClient
import AppStoreModels
import AppStoreVerification
import Crypto
import FilePermissions
import Foundation
import StoreKeeperStorage

/// One configured app, ready to verify evidence: its project, its verifiers (sharing chain caches across requests)
/// and its App Store Server API credentials.
struct AppRuntime: Sendable {
    let configuration: ServerConfiguration.App
    /// The project its subscribers belong to.
    let project: ProjectScope
    let signedData: AppStoreSignedDataVerifier
    let xcode: XcodeSignedDataVerifier?
    let receipts: AppReceiptVerifier
    let credentials: AppStoreClient.Credentials?
    let offerKey: P256.Signing.PrivateKey?

    init(_ app: ServerConfiguration.App, project: ProjectScope, extraRoots: [[UInt8]]) throws {
        configuration = app
        self.project = project
        var roots = extraRoots
        for path in app.extraRootPaths { roots.append(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) }
        let environment = app.environment.map(AppStoreEnvironmentName.parse)
        signedData = try AppStoreSignedDataVerifier(
            configuration: .init(
                rootCertificates: [AppleRootCertificates.appleRootCAG3] + roots,
                expectations: .init(bundleID: app.bundleID, environment: environment, appAppleID: app.appAppleID)))
        xcode = app.allowXcode == true ? XcodeSignedDataVerifier(expectations: .init(bundleID: app.bundleID)) : nil
        receipts = try AppReceiptVerifier(
            configuration: .init(
                rootCertificates: [AppleRootCertificates.appleIncRoot] + roots,
                allowsXcodeReceipts: app.allowXcode == true,
                expectations: .init(bundleID: app.bundleID)))
        var pem = app.privateKeyPEM
        if pem == nil, let path = app.privateKeyPath {
            // A .p8 key others can read is refused, naming it (chmod 600 fixes it).
            try PrivateFiles.requirePrivate(path)
            pem = try String(contentsOfFile: path, encoding: .utf8)
        }
        if let pem, let issuer = app.issuerID, let keyID = app.keyID {
            credentials = .init(
                issuerID: issuer, keyID: keyID, bundleID: app.bundleID,
                privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
        } else {
            credentials = nil
        }
        offerKey = try app.offerPrivateKeyPEM.map { try P256.Signing.PrivateKey(pemRepresentation: $0) }
    }

    /// The verifier for a token: Xcode's for one-certificate chains when allowed, Apple's otherwise.
    func verifier(for token: String) -> any SignedDataVerifying {
        guard xcode != nil, let jws = try? signedData.split(token) else { return signedData }
        return verifier(for: jws)
    }

    /// The verifier for a split token, chosen the same way as for its text. Only for evidence an app posts:
    /// notifications are verified by ``signedData`` alone (they need no key, so Xcode's verifier would let anyone
    /// post one).
    func verifier(for jws: CompactJWS) -> any SignedDataVerifying {
        if let xcode, jws.certificateChain.count == 1 { return xcode }
        return signedData
    }
}

enum AppStoreEnvironmentName {
    static func parse(_ text: String) -> AppStoreEnvironment { AppStoreEnvironment(rawValue: text) }
}
