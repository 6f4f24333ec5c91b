import AppStoreSimulator
import Crypto
import Foundation
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `GET /v1/search`: support finds a customer from what a ticket holds, over HTTP with the simulator as Apple —
/// what StoreKeeper stores first, then what only Apple knows (an order id, a renewal's transaction id), verified
/// and mapped inside the caller's project. Bad input is refused by name and a search changes nothing.
@Suite struct CustomerSearchEndToEndTests {
    typealias E2E = ServerEndToEndTests

    /// The results of `q` as (app user id, matched) pairs, with the status.
    static func search(_ client: E2E.Client, _ q: String, key: String = E2E.secretKey) async throws -> (
        Int, [[String]], [String: Any]
    ) {
        let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
        let (status, body) = try await client.call(.GET, "/v1/search?q=\(encoded)", key: key)
        let results = (body["results"] as? [[String: Any]] ?? []).map {
            [$0["app_user_id"] as? String ?? "?", $0["matched"] as? String ?? "?"]
        }
        return (status, results, body)
    }

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    @Test(
        "a customer is found by id, prefix, alias, original transaction, email, and through Apple by order id and a renewal's transaction id",
        arguments: TestDatabases.backends)
    func findsWhatATicketHolds(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, store, _ in
            let (alice, status) = try await client.buy(h, "premium.monthly", customer: "alice-1")
            #expect(status == 200)
            try await client.buy(h, "premium.monthly", customer: "alfred")
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            try await client.buy(h, "coins.100", customer: "alice-anon", appUserID: anonymous)
            let (aliased, _) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "alice-1"]))
            #expect(aliased == 200)
            let (attributed, _) = try await client.call(
                .POST, "/v1/subscribers/alice-1/attributes",
                body: Data(#"{"attributes": {"$email": "alice@example.com"}}"#.utf8))
            #expect(attributed == 200)

            #expect(try await Self.search(client, "alice-1").1.first == ["alice-1", "app_user_id"])
            #expect(try await Self.search(client, "alice").1 == [["alice-1", "app_user_id"]], "by prefix")
            #expect(try await Self.search(client, "alf").1 == [["alfred", "app_user_id"]])
            #expect(try await Self.search(client, anonymous).1 == [["alice-1", "alias"]])
            #expect(try await Self.search(client, "$anon").1 == [["alice-1", "alias"]], "an alias by prefix")
            #expect(
                try await Self.search(client, alice.originalTransactionID).1 == [
                    ["alice-1", "original_transaction_id"]
                ])
            #expect(try await Self.search(client, "alice@example.com").1 == [["alice-1", "email"]])
            #expect(try await Self.search(client, "  alice@example.com ").1 == [["alice-1", "email"]], "trimmed")

            // What StoreKeeper never stored: the order id on the emailed receipt, and a renewal it has not heard of.
            #expect(try await Self.search(client, alice.orderID).1 == [["alice-1", "order_id"]])
            let period = try #require(await h.simulator.subscription(alice.originalTransactionID)?.periodEnd)
            h.clock.advance(to: period.addingTimeInterval(60))
            await h.simulator.advance()
            let renewal = try #require(await h.simulator.subscription(alice.originalTransactionID)?.latestTransactionID)
            #expect(renewal != alice.originalTransactionID)
            #expect(try await Self.search(client, renewal).1 == [["alice-1", "transaction_id"]])

            // Nothing found is an empty answer, also from Apple (an unknown order, an unknown transaction).
            let before = try await store.dump()
            for nothing in ["nobody-here", "MZZZZZZZZZ", "999999999999"] {
                let (found, results, _) = try await Self.search(client, nothing)
                #expect(found == 200 && results.isEmpty, "\(nothing)")
            }
            // Bad input: refused by name, nothing changed.
            for (bad, why) in [
                ("ab", "two characters"), ("", "empty"), ("   ", "spaces only"),
                (String(repeating: "x", count: 257), "257 characters"), ("ali\u{7}ce", "a control character"),
            ] {
                let (refused, _, body) = try await Self.search(client, bad)
                #expect(refused == 400 && Self.code(body) == "invalid_parameter", "\(why): \(refused)")
                let message = (body["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("q"), "\(why): \(message)")
            }
            let (missing, missingBody) = try await client.call(.GET, "/v1/search", key: E2E.secretKey)
            #expect(missing == 400 && Self.code(missingBody) == "invalid_parameter")
            let (publicKey, _, _) = try await Self.search(client, "alice", key: E2E.publicKey)
            #expect(publicKey == 403, "the app's public key does not search its customers")
            #expect(try await store.dump() == before, "a search wrote something")
        }
    }

    @Test(
        "another project's keys find none of A's customers by id, alias, email or transaction",
        arguments: TestDatabases.backends)
    func otherProjectsFindNothing(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let bought = try await servers.buy(TenantServers.appA, customer: "victim-a")
            let (posted, _) = try await servers.client.call(
                .POST, "/v1/transactions", key: TenantServers.publicA,
                body: servers.client.json(["app_user_id": "victim-a", "signed_transaction": bought.token]))
            #expect(posted == 200)
            let (attributed, _) = try await servers.client.call(
                .POST, "/v1/subscribers/victim-a/attributes", key: TenantServers.publicA,
                body: Data(#"{"attributes": {"$email": "victim@example.com"}}"#.utf8))
            #expect(attributed == 200)
            for q in ["victim-a", "victim", "victim@example.com", bought.originalTransactionID] {
                let (own, ownResults, _) = try await Self.search(servers.client, q, key: TenantServers.readA)
                #expect(own == 200 && ownResults.first?.first == "victim-a", "A's read key finds \(q)")
                let (other, results, _) = try await Self.search(servers.client, q, key: TenantServers.secretB)
                #expect(other == 200 && results.isEmpty, "B found \(q): \(results)")
            }
        }
    }
}
