import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

/// API keys follow the configuration: a key removed from the file stops working at the next start (its API calls
/// and its dashboard sign-in), and two keys of one kind work side by side while callers move to the new one.
@Suite struct ServeKeyRotationTests {
    static let app = "com.example.rotation"
    static let oldSecret = "sk_rotation_old_0123456789abcdefghijklmnop"
    static let newSecret = "sk_rotation_new_0123456789abcdefghijklmnop"
    static let publicKey = "pk_rotation_pub_0123456789abcdefghijklmnop"

    /// A configuration with `secrets` as the app's secret keys (and one public key).
    static func configuration(data: String, secrets: [String]) -> String {
        let keys = ([publicKey] + secrets).map { key in
            #"{"key": "\#(key)", "kind": "\#(key.hasPrefix("sk_") ? "secret" : "public")", "bundleID": "\#(app)"}"#
        }
        return #"""
            {"dataDirectory": "\#(data)", "apps": [{"bundleID": "\#(app)"}], "apiKeys": [\#(keys.joined(separator: ", "))]}
            """#
    }

    @Test(
        "a secret key rotated out of the configuration no longer calls the API or signs in after a restart",
        arguments: TestDatabases.backends)
    func removedKeyRefusedAfterRestart(_ backend: String) async throws {
        guard let environment = try await TestDatabases.serveEnvironment(backend) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let directory = try ServeSecurityTests.temporaryDirectory("rotation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let config = directory.appendingPathComponent("config.json")

        // Step 1 of a rotation: the new key joins the old one; both work at once.
        try Data(Self.configuration(data: data, secrets: [Self.oldSecret, Self.newSecret]).utf8).writePrivately(
            to: config)
        var server = try await BackgroundCommand(
            ["serve", "--port", "0", "--config", config.path], environment: environment)
        for key in [Self.oldSecret, Self.newSecret] {
            let (status, _) = try await ServeClient(base: server.baseURL).call(.GET, "/v1/webhooks", key: key)
            #expect(status == 200, "both keys of a rotation work at once")
            #expect(try await TestBrowser(base: server.baseURL).signIn(key: key) != nil)
        }
        await server.stop()

        // Step 2: the old key leaves the file. After the restart it is refused everywhere; the new one works.
        try Data(Self.configuration(data: data, secrets: [Self.newSecret]).utf8).writePrivately(to: config)
        server = try await BackgroundCommand(
            ["serve", "--port", "0", "--config", config.path], environment: environment)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        let (refused, body) = try await client.call(.GET, "/v1/webhooks", key: Self.oldSecret)
        #expect(refused == 401 && body.contains("invalid_api_key"), "\(body)")
        #expect(try await TestBrowser(base: server.baseURL).signIn(key: Self.oldSecret) == nil)
        let (allowed, _) = try await client.call(.GET, "/v1/webhooks", key: Self.newSecret)
        #expect(allowed == 200)
        let (read, _) = try await client.call(.GET, "/v1/subscribers/someone", key: Self.publicKey)
        #expect(read == 200)
    }
}
