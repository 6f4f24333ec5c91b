import Foundation
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// The audit log over HTTP on both databases: every change a secret key makes through its own routes, and every
/// save in the dashboard, is an entry — who by the key's fingerprint, the route, the target with customers hashed,
/// the body in brief — and nothing else is: no refused change, no read, no evidence post, never a key.
@Suite struct AuditLogEndToEndTests {
    typealias Servers = TenantServers

    static func fingerprint(_ key: String) -> String { String(HexDigest.sha256(key).prefix(16)) }

    static func entries(_ servers: Servers, _ query: String = "") async throws -> (Int, [[String: Any]], Any?) {
        let (status, body) = try await servers.client.call(.GET, "/v1/audit" + query, key: Servers.secretA)
        return (status, body["entries"] as? [[String: Any]] ?? [], body["next_cursor"])
    }

    @Test(
        "changes with A's admin and support keys are logged in order; refusals, reads and evidence posts are not",
        arguments: TestDatabases.backends)
    func logsChanges(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            let client = servers.client
            let offering = #"{"identifier":"spring","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
            let (created, _) = try await client.call(
                .POST, "/v1/offerings", key: Servers.secretA, body: Data(offering.utf8))
            #expect(created == 201)
            // Refused, or reading, or the app's own evidence: no entry.
            let (refused, _) = try await client.call(
                .POST, "/v1/offerings", key: Servers.secretA, body: Data(#"{"identifier":""}"#.utf8))
            #expect(refused == 400)
            let (missing, _) = try await client.call(.DELETE, "/v1/webhooks/wh_nothing", key: Servers.secretA)
            #expect(missing == 404)
            _ = try await client.call(.GET, "/v1/offerings", key: Servers.secretA)
            let alice = try await servers.buy(Servers.appA, customer: "alice")
            let (posted, _) = try await client.call(
                .POST, "/v1/transactions", key: Servers.secretA,
                body: client.json(["app_user_id": "alice", "signed_transaction": alice.token]))
            #expect(posted == 200)
            let (granted, _) = try await client.call(
                .POST, "/v1/subscribers/alice/entitlements/pro/grants", key: Servers.supportA,
                body: client.json(["duration": "P1W", "reason": "ticket 7"]))
            #expect(granted == 201)
            let (readOnly, _) = try await client.call(.GET, "/v1/audit", key: Servers.readA)
            #expect(readOnly == 403, "the log needs an admin key")

            let (status, entries, _) = try await Self.entries(servers)
            #expect(status == 200)
            #expect(
                entries.map { $0["route"] as? String ?? "" } == [
                    "POST /v1/offerings", "POST /v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants",
                ])
            #expect(
                entries.map { $0["actor"] as? String ?? "" } == [
                    "key:" + Self.fingerprint(Servers.secretA), "key:" + Self.fingerprint(Servers.supportA),
                ])
            let summary = entries.first?["summary"] as? String ?? ""
            #expect(summary.contains(#"identifier="spring""#) && summary.contains("packages=[1]"), "\(summary)")
            let customer = "customer:" + HexDigest.sha256(Servers.projectA.key("alice")).prefix(16)
            #expect(entries.last?["target"] as? String == "\(customer) entitlement=pro")
            #expect((entries.last?["summary"] as? String)?.contains(#"reason="ticket 7""#) == true)
            let text = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
            for secret in [Servers.secretA, Servers.supportA, "alice"] {
                #expect(!text.contains(secret), "the log names \(secret)")
            }
            let ids = entries.compactMap { $0["id"] as? Int }
            #expect(ids == ids.sorted() && Set(ids).count == 2)
        }
    }

    @Test("the log pages by cursor; a cursor or limit that is not one is refused by name", arguments: ["sqlite"])
    func pages(_ backend: String) async throws {
        try await Servers.with(backend) { servers in
            for name in ["a1", "a2", "a3"] {
                let (created, _) = try await servers.client.call(
                    .POST, "/v1/offerings", key: Servers.secretA,
                    body: Data(
                        #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
                            .utf8))
                #expect(created == 201)
            }
            let (_, first, cursor) = try await Self.entries(servers, "?limit=2")
            #expect(first.count == 2)
            let next = try #require(cursor as? String)
            let (_, rest, end) = try await Self.entries(servers, "?after=\(next)")
            #expect(rest.count == 1 && (rest.first?["summary"] as? String)?.contains("a3") == true)
            let (_, none, same) = try await Self.entries(servers, "?after=\(try #require(end as? String))")
            #expect(none.isEmpty && same as? String == end as? String)
            for bad in ["?after=abc", "?after=-1", "?limit=0", "?limit=1001"] {
                let (status, body) = try await servers.client.call(.GET, "/v1/audit" + bad, key: Servers.secretA)
                let message = ((body["error"] as? [String: Any])?["message"] as? String) ?? ""
                #expect(status == 400 && (message.contains("after") || message.contains("limit")), "\(bad): \(body)")
            }
        }
    }

    @Test("a save in the dashboard is logged as the session's, and the Audit page shows it to an admin only")
    func dashboard() async throws {
        try await Servers.with("sqlite") { servers in
            let base = servers.client.base
            let cookie = try #require(try await TestBrowser(base: base).signIn(key: Servers.secretA))
            let browser = TestBrowser(base: base, cookie: cookie)
            let token = try #require(TestBrowser.csrf(in: try await browser.go(.GET, "/dashboard").body))
            let rules = #"{"rules":[{"identifier":"<b>spring</b>","offering_id":"nothing"}]}"#
            let saved = try await browser.go(
                .POST, "/dashboard/targeting",
                form: "csrf=\(token)&rules=\(rules.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(saved.status == 303 || saved.status == 400, "\(saved.status)")
            let good = #"{"rules":[]}"#
            let stored = try await browser.go(
                .POST, "/dashboard/targeting",
                form: "csrf=\(token)&rules=\(good.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(stored.status == 303)
            let (_, entries, _) = try await Self.entries(servers)
            let last = try #require(entries.last)
            #expect(last["actor"] as? String == "dashboard:" + Self.fingerprint(Servers.secretA))
            #expect(last["route"] as? String == "PUT /v1/targeting" && last["summary"] as? String == "rules=[0]")
            let page = try await browser.go(.GET, "/dashboard/audit")
            #expect(page.status == 200 && page.body.contains("PUT /v1/targeting") && page.body.contains("dashboard:"))
            #expect(!page.body.contains("<b>spring"), "markup in a summary is text")
            let readCookie = try #require(try await TestBrowser(base: base).signIn(key: Servers.readA))
            let refused = try await TestBrowser(base: base, cookie: readCookie).go(.GET, "/dashboard/audit")
            #expect(refused.status == 403)
            #expect(
                !(try await TestBrowser(base: base, cookie: readCookie).go(.GET, "/dashboard")).body.contains(
                    "/dashboard/audit"))
        }
    }
}
