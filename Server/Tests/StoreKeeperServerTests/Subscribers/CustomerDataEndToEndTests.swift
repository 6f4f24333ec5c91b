import Foundation
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `GET /v1/subscribers/{id}/export` and `DELETE /v1/subscribers/{id}` over HTTP on both databases: a data access
/// request reads back everything the project holds about a customer, and an erasure removes it all in one
/// transaction, so the id afterwards answers as one never seen and nothing stored names it; another customer is
/// untouched, and an id the project does not know, or a key that may not, changes nothing.
@Suite struct CustomerDataEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    @Test(
        "an export holds the subscriber, aliases, attributes, events and raw evidence; an erasure leaves nothing of them",
        arguments: TestDatabases.backends)
    func exportsThenErases(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, store, _ in
            let (alice, status) = try await client.buy(h, "premium.monthly", customer: "alice-1")
            #expect(status == 200)
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            let (coins, _) = try await client.buy(h, "coins.100", customer: "alice-anon", appUserID: anonymous)
            let (aliased, _) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "alice-1"]))
            #expect(aliased == 200)
            let (attributed, _) = try await client.call(
                .POST, "/v1/subscribers/alice-1/attributes",
                body: Data(#"{"attributes": {"$email": "alice@example.com", "team": "blue"}}"#.utf8))
            #expect(attributed == 200)
            let (granted, _) = try await client.call(
                .POST, "/v1/subscribers/alice-1/entitlements/pro/grants", key: E2E.secretKey,
                body: client.json(["duration": "P1W", "reason": "ticket 12"]))
            #expect(granted == 201)
            let (bob, _) = try await client.buy(h, "premium.monthly", customer: "bob")

            // The export: all of it, by the id or by an alias.
            let (exported, export) = try await client.call(.GET, "/v1/subscribers/alice-1/export", key: E2E.secretKey)
            #expect(exported == 200, "\(export)")
            let subscriber = try #require(export["subscriber"] as? [String: Any])
            #expect(subscriber["app_user_id"] as? String == "alice-1")
            #expect(subscriber["aliases"] as? [String] == [anonymous])
            #expect((subscriber["entitlements"] as? [[String: Any]])?.isEmpty == false)
            #expect(export["attributes"] as? [String: String] == ["$email": "alice@example.com", "team": "blue"])
            let events = try #require(export["events"] as? [[String: Any]])
            let types = Set(events.compactMap { $0["type"] as? String })
            #expect(types.isSuperset(of: ["alias_added", "entitlement_granted"]), "\(types)")
            let evidence = try #require(export["evidence"] as? [[String: Any]])
            let evidenceIDs = Set(evidence.compactMap { $0["id"] as? Int })
            let cited = Set(events.compactMap { $0["evidence_id"] as? Int })
            #expect(!cited.isEmpty && cited.isSubset(of: evidenceIDs), "every event's evidence is in the export")
            let kinds = evidence.compactMap { $0["kind"] as? String }
            #expect(kinds.filter { $0 == "signed_transaction" }.count == 2, "both purchases as sent: \(kinds)")
            #expect(kinds.contains("support"), "the grant")
            let bodies = evidence.compactMap { $0["body"] as? String }
            #expect(bodies.allSatisfy { !$0.isEmpty } && bodies.joined().contains("ticket 12"))
            let (byAlias, viaAlias) = try await client.call(
                .GET, "/v1/subscribers/\(anonymous)/export", key: E2E.secretKey)
            #expect(
                byAlias == 200 && (viaAlias["subscriber"] as? [String: Any])?["app_user_id"] as? String == "alice-1")

            // Who may not, and whom the project does not know: refused, nothing changed.
            let before = try await store.dump()
            let (publicExport, _) = try await client.call(.GET, "/v1/subscribers/alice-1/export", key: E2E.publicKey)
            let (publicErase, _) = try await client.call(.DELETE, "/v1/subscribers/alice-1", key: E2E.publicKey)
            #expect(publicExport == 403 && publicErase == 403)
            let (unknownExport, unknownBody) = try await client.call(
                .GET, "/v1/subscribers/nobody/export", key: E2E.secretKey)
            #expect(unknownExport == 404 && Self.code(unknownBody) == "customer_not_found")
            let (unknownErase, erasedNobody) = try await client.call(
                .DELETE, "/v1/subscribers/nobody", key: E2E.secretKey)
            #expect(unknownErase == 404 && Self.code(erasedNobody) == "customer_not_found")
            let (tooLong, _) = try await client.call(
                .DELETE, "/v1/subscribers/" + String(repeating: "x", count: 300), key: E2E.secretKey)
            #expect(tooLong == 400)
            #expect(try await store.dump() == before)

            // The erasure, by the id.
            let (erased, erasure) = try await client.call(.DELETE, "/v1/subscribers/alice-1", key: E2E.secretKey)
            #expect(erased == 200, "\(erasure)")
            #expect(erasure["app_user_id"] as? String == "alice-1" && erasure["aliases"] as? [String] == [anonymous])
            #expect(erasure["subscriptions"] as? Int == 2 && (erasure["rows"] as? Int ?? 0) > 10, "\(erasure)")

            // The id and its alias answer as never seen; no read finds them; nothing stored names them.
            for id in ["alice-1", anonymous] {
                let document = try await client.subscriber(id)
                #expect((document["entitlements"] as? [Any])?.isEmpty == true, "\(id)")
                #expect((document["aliases"] as? [Any])?.isEmpty == true && document["first_seen"] is NSNull, "\(id)")
                let (_, history) = try await client.call(.GET, "/v1/subscribers/\(id)/events", key: E2E.secretKey)
                #expect((history["events"] as? [Any])?.isEmpty == true, "\(id): \(history)")
            }
            for text in ["alice", "alice@example.com"] {
                let (_, found) = try await client.call(.GET, "/v1/search?q=\(text)", key: E2E.secretKey)
                #expect((found["results"] as? [Any])?.isEmpty == true, "\(text): \(found)")
            }
            let (_, list) = try await client.call(.GET, "/v1/subscribers?limit=100", key: E2E.secretKey)
            let listed = (list["subscribers"] as? [[String: Any]] ?? []).compactMap { $0["app_user_id"] as? String }
            #expect(listed == ["bob"], "\(list)")
            let (_, feed) = try await client.call(.GET, "/v1/events?limit=1000", key: E2E.secretKey)
            let feedUsers = Set((feed["events"] as? [[String: Any]] ?? []).compactMap { $0["app_user_id"] as? String })
            #expect(feedUsers == ["bob"], "\(feedUsers)")
            let dump = try await store.dump()
            for trace in [
                "alice-1", anonymous, "alice@example.com", alice.originalTransactionID, coins.originalTransactionID,
                "ticket 12",
            ] {
                #expect(!dump.contains(trace), "the store still holds \(trace.prefix(40))")
            }
            #expect(dump.contains(bob.originalTransactionID) && dump.contains("bob"))
            let bobNow = try await client.subscriber("bob")
            #expect((bobNow["entitlements"] as? [[String: Any]])?.first?["product_id"] as? String == "premium.monthly")

            // Erased once: the second time the project knows nothing of it.
            let (again, againBody) = try await client.call(.DELETE, "/v1/subscribers/alice-1", key: E2E.secretKey)
            let (exportAgain, _) = try await client.call(.GET, "/v1/subscribers/alice-1/export", key: E2E.secretKey)
            #expect(again == 404 && Self.code(againBody) == "customer_not_found" && exportAgain == 404)

            // The audit log has the erasure, with the customer hashed.
            let (_, audit) = try await client.call(.GET, "/v1/audit", key: E2E.secretKey)
            let entries = audit["entries"] as? [[String: Any]] ?? []
            let erasures = entries.filter { $0["route"] as? String == "DELETE /v1/subscribers/{app_user_id}" }
            #expect(erasures.count == 1, "\(entries)")
            let log = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
            #expect(!log.contains("alice"), "the log names the customer")
        }
    }

    @Test(
        "erasing through an alias erases its customer; a customer known only by attributes is erased too",
        arguments: TestDatabases.backends)
    func erasesThroughAnAlias(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, store, _ in
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            let (bought, _) = try await client.buy(h, "premium.monthly", customer: "carol", appUserID: anonymous)
            let (aliased, _) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "carol"]))
            #expect(aliased == 200)
            let (erased, erasure) = try await client.call(.DELETE, "/v1/subscribers/\(anonymous)", key: E2E.secretKey)
            #expect(erased == 200 && erasure["app_user_id"] as? String == "carol", "\(erasure)")
            #expect(!(try await store.dump()).contains(bought.originalTransactionID))

            let (attributed, _) = try await client.call(
                .POST, "/v1/subscribers/dave/attributes",
                body: Data(#"{"attributes": {"$email": "d@example.com"}}"#.utf8))
            #expect(attributed == 200)
            let (exported, export) = try await client.call(.GET, "/v1/subscribers/dave/export", key: E2E.secretKey)
            #expect(exported == 200 && export["attributes"] as? [String: String] == ["$email": "d@example.com"])
            let (gone, _) = try await client.call(.DELETE, "/v1/subscribers/dave", key: E2E.secretKey)
            #expect(gone == 200)
            #expect(!(try await store.dump()).contains("d@example.com"))
        }
    }
}
