import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Trust round three, item 1: the app's public key cannot take over a paying customer through an anonymous id.
/// The attack: alias a fresh `$anonymous:<uuid>` into the victim (allowed: it has no evidence), then alias the
/// same anonymous id into the attacker's id, which used to merge the customer it resolved to — the victim, with
/// their purchases. An id that already belongs to a customer is that customer, judged inside the merge's
/// transaction; so is a read key, which writes no more than the app.
@Suite struct AliasTakeoverTests {
    typealias Servers = TenantServers

    /// `POST /v1/subscribers/{id}/alias {"new_app_user_id": into}` with `key`: the status and the answer.
    static func alias(_ servers: Servers, _ id: String, into: String, key: String) async throws -> (
        Int, [String: Any]
    ) {
        try await servers.client.call(
            .POST, "/v1/subscribers/\(id)/alias", key: key, body: servers.client.json(["new_app_user_id": into]))
    }

    /// How many entitlements `user`'s document lists, as the app's public key reads it.
    static func entitlements(_ servers: Servers, _ user: String) async throws -> Int {
        let (_, body) = try await servers.client.call(.GET, "/v1/subscribers/\(user)", key: Servers.publicA)
        return ((body["subscriber"] as? [String: Any])?["entitlements"] as? [Any])?.count ?? -1
    }

    /// A paying customer `name` of app A.
    static func payingCustomer(_ servers: Servers, _ name: String) async throws {
        let bought = try await servers.buy(Servers.appA, customer: name)
        let (posted, _) = try await servers.client.call(
            .POST, "/v1/transactions", key: Servers.publicA,
            body: servers.client.json(["app_user_id": name, "signed_transaction": bought.token]))
        #expect(posted == 200)
    }

    @Test(
        "an anonymous id aliased into a paying customer is that customer: merging it away needs a support or admin key",
        arguments: TestDatabases.backends)
    func anonymousIDTakeover(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            try await Self.payingCustomer(servers, "victim")
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            let (first, _) = try await Self.alias(servers, anonymous, into: "victim", key: Servers.publicA)
            #expect(first == 200, "an anonymous id without evidence may log in as anyone's account")
            let before = try await servers.store.dump()

            for key in [Servers.publicA, Servers.readA] {
                let (taken, answer) = try await Self.alias(servers, anonymous, into: "mallory", key: key)
                #expect(taken == 403, "\(answer)")
                #expect((answer["error"] as? [String: Any])?["code"] as? String == "secret_key_required")
                #expect(try await servers.store.dump() == before, "a refused merge changes nothing")
            }
            #expect(try await Self.entitlements(servers, "mallory") == 0)
            #expect(try await Self.entitlements(servers, "victim") == 1)
            // The victim's own id, merged directly, is refused the same way.
            let (direct, _) = try await Self.alias(servers, "victim", into: "mallory", key: Servers.readA)
            #expect(direct == 403)

            // The owner's backend (a support key) may still move the customer.
            let (moved, _) = try await Self.alias(servers, anonymous, into: "victim-2", key: Servers.supportA)
            #expect(moved == 200)
            #expect(try await Self.entitlements(servers, "victim-2") == 1)
        }
    }

    @Test(
        "two concurrent aliases of one anonymous id, into the victim and into the attacker: the victim keeps its purchases",
        arguments: TestDatabases.backends)
    func concurrentAliases(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            try await Self.payingCustomer(servers, "payer")
            for round in 0..<12 {
                let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
                let attacker = "mallory-\(round)"
                async let toVictim = Self.alias(servers, anonymous, into: "payer", key: Servers.publicA)
                async let toAttacker = Self.alias(servers, anonymous, into: attacker, key: Servers.publicA)
                let statuses = try await [toVictim.0, toAttacker.0]
                #expect(statuses.allSatisfy { [200, 403].contains($0) }, "\(statuses)")
                // Whichever committed first, the purchase stays with the payer's own id: the attacker's id holds
                // nothing, or is now an alias of the payer (as any id without evidence may become with the public
                // key, which already reads any customer it can name).
                let (_, payer) = try await servers.client.call(.GET, "/v1/subscribers/payer", key: Servers.secretA)
                let document = try #require(payer["subscriber"] as? [String: Any])
                #expect(document["app_user_id"] as? String == "payer", "round \(round)")
                #expect((document["entitlements"] as? [Any])?.count == 1, "round \(round)")
                #expect(
                    (document["subscriptions"] as? [Any])?.count == 1, "round \(round): the purchase stayed with payer")
                let (_, held) = try await servers.client.call(.GET, "/v1/subscribers/\(attacker)", key: Servers.secretA)
                let attackers = try #require(held["subscriber"] as? [String: Any])
                #expect(
                    attackers["app_user_id"] as? String == "payer"
                        || (attackers["entitlements"] as? [Any])?.isEmpty == true, "round \(round): \(attackers)")
            }
        }
    }

    @Test(
        "item 3: a customer the backend marked (tier, $email) cannot be merged into another id with the public key",
        arguments: TestDatabases.backends)
    func serverSetAttributesStay(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let (marked, _) = try await servers.client.call(
                .POST, "/v1/subscribers/vip/attributes", key: Servers.secretA,
                body: Data(#"{"attributes": {"tier": "gold", "$email": "vip@example.com"}}"#.utf8))
            #expect(marked == 200)
            let before = try await servers.store.dump()
            for key in [Servers.publicA, Servers.readA] {
                let (stolen, answer) = try await Self.alias(servers, "vip", into: "mallory", key: key)
                #expect(stolen == 403, "\(answer)")
                #expect(try await servers.store.dump() == before, "a refused merge changes nothing")
            }
            // Through an anonymous id aliased into it first: the same customer, the same answer.
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            #expect(try await Self.alias(servers, anonymous, into: "vip", key: Servers.publicA).0 == 200)
            #expect(try await Self.alias(servers, anonymous, into: "mallory", key: Servers.publicA).0 == 403)
            // What the app itself set does not hold a customer back; the backend may move a marked one.
            let (appSet, _) = try await servers.client.call(
                .POST, "/v1/subscribers/guest/attributes", key: Servers.publicA,
                body: Data(#"{"attributes": {"theme": "dark"}}"#.utf8))
            #expect(appSet == 200)
            #expect(try await Self.alias(servers, "guest", into: "mallory", key: Servers.publicA).0 == 200)
            #expect(try await Self.alias(servers, "vip", into: "vip-2", key: Servers.secretA).0 == 200)
        }
    }
}
