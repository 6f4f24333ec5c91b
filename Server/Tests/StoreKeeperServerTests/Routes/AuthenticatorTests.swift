import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// A running server believes a valid key only for a few seconds before asking the store again: a key that another
/// replica's start removed (rotation) stops working here, and the dashboard sessions it made end.
@Suite struct AuthenticatorTests {
    typealias Servers = TenantServers

    @Test(
        "a key removed by another replica's start is refused by a running server within seconds; its sessions end",
        arguments: TestDatabases.backends)
    func removedWhileRunning(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let base = servers.client.base
            let cookie = try #require(try await TestBrowser(base: base).signIn(key: Servers.secretA))
            let signedIn = TestBrowser(base: base, cookie: cookie)
            #expect(try await signedIn.go(.GET, "/dashboard/webhooks").status == 200)
            let (before, _) = try await servers.client.call(.GET, "/v1/webhooks", key: Servers.secretA)
            #expect(before == 200)

            // Another replica starts with A's secret key rotated out of its configuration.
            try await servers.store.keys.replaceAPIKeys(
                Dictionary(
                    uniqueKeysWithValues: [
                        (Servers.publicA, APIKeyRecord(kind: .public, bundleID: Servers.appA)),
                        (Servers.publicB, APIKeyRecord(kind: .public, bundleID: Servers.appB)),
                        (Servers.secretB, APIKeyRecord(kind: .secret, bundleID: Servers.appB)),
                    ].map { (HexDigest.sha256($0.0), $0.1) }))
            try await Task.sleep(for: .seconds(6))

            let (after, body) = try await servers.client.call(.GET, "/v1/webhooks", key: Servers.secretA)
            #expect(
                after == 401 && (body["error"] as? [String: Any])?["code"] as? String == "invalid_api_key", "\(body)")
            let page = try await signedIn.go(.GET, "/dashboard/webhooks")
            #expect(page.status == 303 && page.headers.first(name: "Location") == "/dashboard/login")
            // The keys that stayed still work.
            let (kept, _) = try await servers.client.call(.GET, "/v1/webhooks", key: Servers.secretB)
            #expect(kept == 200)
            let (read, _) = try await servers.client.call(.GET, "/v1/subscribers/anyone", key: Servers.publicA)
            #expect(read == 200)
        }
    }
}
