import AppStoreSimulator
import Foundation
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `POST|DELETE /v1/subscribers/{id}/entitlements/{entitlement}/grants`: support gives access without a purchase
/// and takes it back, over HTTP on both databases. A grant joins the entitlement's sources (the latest end wins),
/// shows in the document with why, is announced, ends on the server's clock, and bad input changes nothing.
@Suite struct SupportGrantsEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func grants(_ user: String, _ entitlement: String = "pro") -> String {
        "/v1/subscribers/\(user)/entitlements/\(entitlement)/grants"
    }

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static func date(_ value: Any?) -> Date? { (value as? String).flatMap { try? Date($0, strategy: .iso8601) } }

    @Test(
        "a grant gives an unknown customer the entitlement for a week, with why; it ends on the clock",
        arguments: TestDatabases.backends)
    func grantsAWeek(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let before = h.clock.now()
            let (status, grant) = try await client.call(
                .POST, Self.grants("reviewer"), key: E2E.secretKey,
                body: client.json(["duration": "P1W", "reason": "App Review <b>team</b>"]))
            #expect(status == 201, "\(grant)")
            let id = try #require(grant["id"] as? String)
            #expect(
                id.hasPrefix("grant_") && grant["active"] as? Bool == true && grant["entitlement"] as? String == "pro")
            let end = try #require(Self.date(grant["expires_at"]))
            #expect(abs(end.timeIntervalSince(before) - 7 * 86_400) < 2)

            // The document: the entitlement from the grant, and the grant with why.
            let subscriber = try await client.subscriber("reviewer")
            let entitlements = try #require(subscriber["entitlements"] as? [[String: Any]])
            #expect(entitlements.count == 1)
            #expect(entitlements.first?["identifier"] as? String == "pro")
            #expect(entitlements.first?["product_id"] as? String == "$grant")
            #expect(entitlements.first?["granted_by"] as? String == id)
            #expect(Self.date(entitlements.first?["expires_at"]) == end)
            let listed = try #require((subscriber["grants"] as? [[String: Any]])?.first)
            let why = (listed["explanation"] as? [String])?.joined(separator: " ") ?? ""
            #expect(why.hasPrefix("[support-grant] pro granted by support") && why.contains("App Review <b>team</b>"))

            // Recorded in the customer's history.
            let (_, events) = try await client.call(.GET, "/v1/subscribers/reviewer/events", key: E2E.secretKey)
            let types = (events["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
            #expect(types == ["entitlement_granted"], "\(events)")

            // A week later the grant has ended: no entitlement, the grant kept with its end.
            h.clock.advance(to: end.addingTimeInterval(1))
            let later = try await client.subscriber("reviewer")
            #expect((later["entitlements"] as? [Any])?.isEmpty == true)
            let ended = try #require((later["grants"] as? [[String: Any]])?.first)
            #expect(ended["active"] as? Bool == false)
            #expect(((ended["explanation"] as? [String]) ?? []).contains { $0.contains("ended") })
            // Nothing left to revoke.
            let (gone, body) = try await client.call(.DELETE, Self.grants("reviewer"), key: E2E.secretKey)
            #expect(gone == 404 && Self.code(body) == "grant_not_found")
        }
    }

    @Test(
        "beside a purchase the latest end wins; a revocation takes back only the grant and is announced",
        arguments: TestDatabases.backends)
    func revokes(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, store, _ in
            let (bought, status) = try await client.buy(h, "premium.monthly", customer: "alice")
            #expect(status == 200)
            let paid = try #require(
                ((try await client.subscriber("alice"))["entitlements"] as? [[String: Any]])?.first)
            #expect(paid["product_id"] as? String == "premium.monthly")
            let (granted, grant) = try await client.call(
                .POST, Self.grants("alice"), key: E2E.secretKey, body: client.json(["duration": "P1Y"]))
            #expect(granted == 201)
            let withGrant = try #require(
                ((try await client.subscriber("alice"))["entitlements"] as? [[String: Any]])?.first)
            #expect(
                withGrant["product_id"] as? String == "$grant"
                    && withGrant["granted_by"] as? String == grant["id"] as? String)
            #expect(Self.date(withGrant["expires_at"])! > Self.date(paid["expires_at"])!, "the latest end")
            // A lifetime grant of another entitlement stands apart.
            let (lifetime, _) = try await client.call(
                .POST, Self.grants("alice", "basic"), key: E2E.secretKey, body: client.json(["duration": "lifetime"]))
            #expect(lifetime == 201)

            let (revoked, answer) = try await client.call(.DELETE, Self.grants("alice"), key: E2E.secretKey)
            #expect(revoked == 200, "\(answer)")
            let taken = try #require((answer["revoked"] as? [[String: Any]])?.first)
            #expect(taken["id"] as? String == grant["id"] as? String && taken["active"] as? Bool == false)
            #expect(taken["revoked_at"] is String)
            let after = try await client.subscriber("alice")
            let entitlements = (after["entitlements"] as? [[String: Any]] ?? []).map {
                [
                    $0["identifier"] as? String ?? "", $0["product_id"] as? String ?? "",
                    $0["granted_by"] as? String ?? "",
                ]
            }
            let basic = (after["grants"] as? [[String: Any]] ?? []).first { $0["entitlement"] as? String == "basic" }
            #expect(
                entitlements == [
                    ["basic", "$grant", basic?["id"] as? String ?? "?"],
                    ["pro", "premium.monthly", bought.originalTransactionID],
                ])
            #expect(basic?["expires_at"] is NSNull)
            let (_, events) = try await client.call(.GET, "/v1/subscribers/alice/events", key: E2E.secretKey)
            let types = (events["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
            #expect(types.contains("entitlement_revoked") && types.filter { $0 == "entitlement_granted" }.count == 2)

            // Revoking again finds nothing in force and writes nothing.
            let dump = try await store.dump()
            let (again, body) = try await client.call(.DELETE, Self.grants("alice"), key: E2E.secretKey)
            #expect(again == 404 && Self.code(body) == "grant_not_found")
            #expect(try await store.dump() == dump)
        }
    }

    @Test(
        "bad grants are refused by name and change nothing: an unknown entitlement, a duration not in the list, both or neither, a past or unreadable end, a long reason, another key",
        arguments: TestDatabases.backends)
    func refusesBadInput(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, store, _ in
            let before = try await store.dump()
            let cases: [(String, String, String, String)] = [
                ("gold", #"{"duration":"P1W"}"#, "unknown_entitlement", "gold"),
                ("pro", #"{"duration":"P2W"}"#, "invalid_grant", "P2W"),
                ("pro", #"{"duration":"P1W","expires_at":"2099-01-01T00:00:00Z"}"#, "invalid_grant", "not both"),
                ("pro", #"{}"#, "invalid_grant", "duration"),
                ("pro", #"{"expires_at":"2001-01-01T00:00:00Z"}"#, "invalid_grant", "not after now"),
                ("pro", #"{"expires_at":"tomorrow"}"#, "invalid_grant", "tomorrow"),
                ("pro", #"{"days":3}"#, "unknown_field", "days"),
                ("pro", #"{"duration":3}"#, "invalid_field", "duration"),
                (
                    "pro", "{\"duration\":\"P1W\",\"reason\":\"\(String(repeating: "r", count: 501))\"}",
                    "invalid_grant", "reason"
                ),
                ("pro", "{\"duration\":\"P1W\",\"reason\":\"a\\u0007b\"}", "invalid_grant", "reason"),
            ]
            for (entitlement, body, code, named) in cases {
                let (status, answer) = try await client.call(
                    .POST, Self.grants("someone", entitlement), key: E2E.secretKey, body: Data(body.utf8))
                let message = (answer["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(status == 400 && Self.code(answer) == code, "\(body): \(status) \(answer)")
                #expect(message.contains(named), "\(body): \(message)")
            }
            let (unknown, answer) = try await client.call(.DELETE, Self.grants("someone", "gold"), key: E2E.secretKey)
            #expect(unknown == 400 && Self.code(answer) == "unknown_entitlement")
            let (nobody, none) = try await client.call(.DELETE, Self.grants("someone"), key: E2E.secretKey)
            #expect(nobody == 404 && Self.code(none) == "grant_not_found")
            // The app's public key speaks for the app, not for support.
            let (publicKey, refused) = try await client.call(
                .POST, Self.grants("someone"), key: E2E.publicKey, body: client.json(["duration": "lifetime"]))
            #expect(publicKey == 403 && Self.code(refused) == "secret_key_required")
            #expect(try await store.dump() == before)
        }
    }

    @Test(
        "a grant and its revocation are announced to the project's webhooks with the entitlement they change",
        arguments: TestDatabases.backends)
    func announced(_ backend: String) async throws {
        try await TenantServers.with(backend) { servers in
            let client = servers.client
            let (webhook, _) = try await client.call(
                .POST, "/v1/webhooks", key: TenantServers.secretA, body: client.json(["url": "https://hooks.example/a"])
            )
            #expect(webhook == 201)
            let path = "/v1/subscribers/carol/entitlements/basic/grants"
            let (granted, _) = try await client.call(
                .POST, path, key: TenantServers.secretA, body: client.json(["duration": "P3D"]))
            let (revoked, _) = try await client.call(.DELETE, path, key: TenantServers.secretA)
            #expect(granted == 201 && revoked == 200)
            let (_, deliveries) = try await client.call(
                .GET, "/v1/subscribers/carol/webhook_deliveries", key: TenantServers.secretA)
            let types = (deliveries["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["event_type"] as? String }
            #expect(types.sorted() == ["entitlement_granted", "entitlement_revoked"], "\(deliveries)")
        }
    }
}
