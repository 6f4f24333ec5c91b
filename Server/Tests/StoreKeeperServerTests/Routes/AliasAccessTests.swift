import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// The public key ships inside the app, so anyone has it: with it, only an id nobody can guess (the SDK's
/// anonymous id) or an id without purchases may be merged into another. Moving a known customer's purchases to
/// another id needs the secret key.
@Suite struct AliasAccessTests {
    typealias Servers = TenantServers

    @Test(
        "a public key cannot merge a customer who has purchases into another id; the secret key can",
        arguments: TestDatabases.backends)
    func publicKeyCannotMoveAPayingCustomer(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let bob = try await servers.buy(Servers.appA, customer: "bob")
            let (posted, _) = try await servers.client.call(
                .POST, "/v1/transactions", key: Servers.publicA,
                body: servers.client.json(["app_user_id": "bob", "signed_transaction": bob.token]))
            #expect(posted == 200)
            let before = try await servers.store.dump()

            let (stolen, answer) = try await servers.client.call(
                .POST, "/v1/subscribers/bob/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "mallory"]))
            #expect(stolen == 403, "\(answer)")
            #expect((answer["error"] as? [String: Any])?["code"] as? String == "secret_key_required")
            #expect(try await servers.store.dump() == before, "a refused merge changes nothing")
            let (_, mallory) = try await servers.client.call(.GET, "/v1/subscribers/mallory", key: Servers.publicA)
            #expect(((mallory["subscriber"] as? [String: Any])?["entitlements"] as? [Any])?.isEmpty == true)

            // An id with no purchases of its own (a new device) may be merged with the public key.
            let (device, _) = try await servers.client.call(
                .POST, "/v1/subscribers/bob-ipad/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "bob"]))
            #expect(device == 200)
            // So may the SDK's anonymous id, purchases and all (logIn after buying anonymously).
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            let carol = try await servers.buy(Servers.appA, customer: "carol")
            _ = try await servers.client.call(
                .POST, "/v1/transactions", key: Servers.publicA,
                body: servers.client.json(["app_user_id": anonymous, "signed_transaction": carol.token]))
            let (loggedIn, merged) = try await servers.client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "carol"]))
            #expect(loggedIn == 200)
            #expect(((merged["subscriber"] as? [String: Any])?["entitlements"] as? [Any])?.count == 1)
            // Something that only looks anonymous is not.
            let (lookalike, _) = try await servers.client.call(
                .POST, "/v1/subscribers/carol/alias", key: Servers.publicA,
                body: servers.client.json(["new_app_user_id": "$anonymous:not-a-uuid"]))
            #expect(lookalike == 403)

            // The secret key (the app's own backend) may move a paying customer.
            let (moved, _) = try await servers.client.call(
                .POST, "/v1/subscribers/bob/alias", key: Servers.secretA,
                body: servers.client.json(["new_app_user_id": "robert"]))
            #expect(moved == 200)
            let (_, robert) = try await servers.client.call(.GET, "/v1/subscribers/robert", key: Servers.publicA)
            #expect(((robert["subscriber"] as? [String: Any])?["entitlements"] as? [Any])?.count == 1)
        }
    }
}
