import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// `allowXcode` accepts what StoreKit testing in Xcode makes and nothing more: self-signed data that says
/// `Xcode`. A self-signed token claiming Production, and any self-signed notification, are refused over HTTP and
/// change nothing stored; an app configured for Production cannot turn it on.
@Suite struct XcodeEvidenceTests {
    static let app = "com.example.naturelab.backyardbirds.example"
    static let publicKey = "pk_xcode_public_0123456789abcdefghijklmnop"
    static let transaction = "jws/xcode_transaction_autorenewable_2023.jws"

    /// A server for the Xcode fixtures' app with `allowXcode` on, its clock the day after the fixture's purchase.
    static func withServer(_ backend: String, _ body: @Sendable (ServeClient, SQLStore) async throws -> Void)
        async throws
    {
        guard let store = try await TestDatabases.makeStore(backend) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        var configuration = ServerConfiguration()
        configuration.simulator.enabled = false
        var app = ServerConfiguration.App(bundleID: app)
        app.allowXcode = true
        configuration.apps = [app]
        configuration.apiKeys = [.init(key: publicKey, kind: .public, bundleID: Self.app)]
        let dependencies = StoreKeeperApplication.Dependencies(
            store: store, httpClient: HTTPClient.shared, now: { Date(timeIntervalSince1970: 1_697_760_000) })
        let router = try await StoreKeeperApplication.buildRouter(
            configuration: configuration, dependencies: dependencies, appleBaseURL: nil)
        do {
            try await LiveServer.with(router: router) { base in try await body(ServeClient(base: base), store) }
        } catch {
            try await store.close()
            throw error
        }
        try await store.close()
    }

    @Test(
        "a self-signed transaction claiming Production or Sandbox is refused and stores nothing",
        arguments: TestDatabases.backends)
    func forgedEnvironmentRefused(_ backend: String) async throws {
        try await Self.withServer(backend) { client, store in
            let before = try await store.dump()
            for environment in ["Production", "Sandbox"] {
                let forged = try JWSTamper.selfSigned(try Fixtures.text(Self.transaction)) {
                    $0["environment"] = environment
                }
                let (status, body) = try await client.call(
                    .POST, "/v1/transactions", key: Self.publicKey,
                    body: #"{"app_user_id":"mallory","signed_transaction":"\#(forged)"}"#)
                #expect(status == 422 && body.contains("unexpected_environment"), "\(environment): \(body)")
            }
            #expect(try await store.dump() == before)
            // What Xcode itself signed is still accepted, as Xcode data.
            let (status, body) = try await client.call(
                .POST, "/v1/transactions", key: Self.publicKey,
                body: #"{"app_user_id":"tester","signed_transaction":"\#(try Fixtures.text(Self.transaction))"}"#)
            #expect(status == 200 && body.contains(#""environment":"Xcode""#), "\(body)")
        }
    }

    @Test(
        "a self-signed notification is refused even with allowXcode, and revokes nothing",
        arguments: TestDatabases.backends)
    func forgedNotificationRefused(_ backend: String) async throws {
        try await Self.withServer(backend) { client, store in
            let token = try Fixtures.text(Self.transaction)
            let (bought, _) = try await client.call(
                .POST, "/v1/transactions", key: Self.publicKey,
                body: #"{"app_user_id":"tester","signed_transaction":"\#(token)"}"#)
            #expect(bought == 200)
            let before = try await store.dump()
            let refund: [String: Any] = [
                "notificationType": "REFUND", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
                "signedDate": 1_697_760_000_000,
                "data": ["bundleId": Self.app, "environment": "Xcode", "signedTransactionInfo": token],
            ]
            let forged = try JWSTamper.selfSigned(Array(try JSONSerialization.data(withJSONObject: refund)))
            let (status, body) = try await client.call(
                .POST, "/v1/notifications/appstore", key: nil, body: #"{"signedPayload":"\#(forged)"}"#)
            #expect(status == 422 && body.contains("xcode_not_allowed"), "\(body)")
            #expect(try await store.dump() == before)
            let (_, subscriber) = try await client.call(.GET, "/v1/subscribers/tester", key: Self.publicKey)
            #expect(subscriber.contains(#""status":"active""#), "\(subscriber)")
        }
    }

    @Test("allowXcode on an app whose environment is Production is refused at startup, naming the app")
    func productionAppRefused() throws {
        var configuration = ServerConfiguration()
        configuration.simulator.enabled = false
        var app = ServerConfiguration.App(bundleID: "com.example.live")
        app.allowXcode = true
        app.environment = "Production"
        configuration.apps = [app]
        #expect {
            try configuration.validate()
        } throws: { error in
            "\(error)".contains("com.example.live") && "\(error)".contains("allowXcode")
        }
        app.environment = "Sandbox"
        configuration.apps = [app]
        try configuration.validate()
    }
}
