import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Targeting over HTTP: ordered rules choose which offering a customer is shown, by what the app's request says
/// (platform, app version, storefront, language) and where the customer stands (new or long-known, never
/// subscribed, active or expired); the first rule that matches wins and the answer names it.
@Suite struct TargetingEndToEndTests {
    typealias E2E = ServerEndToEndTests
    static let secret = E2E.secretKey

    /// The offerings a customer is shown, asked with `headers`: the current offering and the rule that chose it.
    static func shown(_ client: E2E.Client, _ user: String, _ headers: [(String, String)] = []) async throws
        -> (offering: String?, rule: String?)
    {
        var request = HTTPClientRequest(url: client.base + "/v1/subscribers/\(user)/offerings")
        request.headers.add(name: "Authorization", value: "Bearer \(E2E.publicKey)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
        #expect(response.status == .ok, "\(object)")
        return (object["current_offering_id"] as? String, object["targeting_rule"] as? String)
    }

    static func setUp(_ client: E2E.Client, rules: String) async throws {
        for name in ["default", "mac", "new-app", "german", "brazil", "welcome", "winback", "veterans"] {
            let body = #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
            #expect(try await client.call(.POST, "/v1/offerings", key: Self.secret, body: Data(body.utf8)).0 == 201)
        }
        let (current, _) = try await client.call(
            .PUT, "/v1/offerings/current", key: Self.secret, body: client.json(["identifier": "default"]))
        let (put, answer) = try await client.call(.PUT, "/v1/targeting", key: Self.secret, body: Data(rules.utf8))
        #expect(current == 200 && put == 200, "\(answer)")
    }

    @Test("what the request says: platform, app version, storefront and language; the first matching rule wins")
    func requestConditions() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            try await Self.setUp(
                client,
                rules: """
                    {"rules": [
                      {"identifier": "mac-users", "offering_id": "mac", "when": {"platforms": ["macOS"]}},
                      {"identifier": "v3", "offering_id": "new-app", "when": {"app_version": {"at_least": "3.0"}}},
                      {"identifier": "germans", "offering_id": "german", "when": {"locales": ["de"]}},
                      {"identifier": "brazilians", "offering_id": "brazil",
                       "when": {"storefronts": ["BRA"], "app_version": {"below": "3"}}}
                    ]}
                    """)
            #expect(try await Self.shown(client, "u1") == ("default", nil))
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-Platform", "macOS")]) == ("mac", "mac-users"))
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-Platform", "iOS")]) == ("default", nil))
            // Versions compare number by number: 3.0.1 and 10.0 are past 3.0; 2.10 is not.
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-App-Version", "3.0.1")]).rule == "v3")
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-App-Version", "10.0")]).rule == "v3")
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-App-Version", "2.10")]).rule == nil)
            #expect(try await Self.shown(client, "u1", [("StoreKeeper-App-Version", "not.a.version")]).rule == nil)
            // A language matches by its whole tag or its language; the first rule a customer matches wins.
            #expect(try await Self.shown(client, "u1", [("Accept-Language", "de-AT,en;q=0.5")]).rule == "germans")
            #expect(try await Self.shown(client, "u1", [("Accept-Language", "en-US,de;q=0.9")]).rule == nil)
            #expect(
                try await Self.shown(
                    client, "u1", [("Accept-Language", "de"), ("StoreKeeper-Platform", "macOS")]
                ).rule == "mac-users")
            #expect(
                try await Self.shown(
                    client, "u1", [("StoreKeeper-Storefront", "BRA"), ("StoreKeeper-App-Version", "2.9")]
                ) == ("brazil", "brazilians"))
            // Every condition of a rule must hold: the same storefront on version 3 matches the v3 rule first.
            #expect(
                try await Self.shown(
                    client, "u1", [("StoreKeeper-Storefront", "BRA"), ("StoreKeeper-App-Version", "3.1")]
                ).rule == "v3")
            // An oversized header is read as absent, not as an error.
            #expect(
                try await Self.shown(client, "u1", [("StoreKeeper-Platform", String(repeating: "m", count: 5000))])
                    .rule == nil)
        }
    }

    @Test(
        "where the customer stands: never subscribed, active, expired, and days since first seen",
        arguments: TestDatabases.backends)
    func customerConditions(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, delivery in
            try await Self.setUp(
                client,
                rules: """
                    {"rules": [
                      {"identifier": "subscribers", "offering_id": "default", "when": {"entitlement_state": "active"}},
                      {"identifier": "lapsed", "offering_id": "winback", "when": {"entitlement_state": "expired"}},
                      {"identifier": "veterans", "offering_id": "veterans", "when": {"first_seen_days": {"at_least": 30}}},
                      {"identifier": "newcomers", "offering_id": "welcome", "when": {"entitlement_state": "never_subscribed"}}
                    ]}
                    """)
            #expect(try await Self.shown(client, "vera") == ("welcome", "newcomers"))
            // Walt buys coins only: first seen now, never subscribed.
            _ = try await client.buy(h, "coins.100", customer: "walt")
            #expect(try await Self.shown(client, "walt") == ("welcome", "newcomers"))
            let (bought, _) = try await client.buy(h, "premium.monthly", customer: "vera")
            #expect(try await Self.shown(client, "vera") == ("default", "subscribers"))
            try await h.simulator.setAutoRenew(originalTransactionID: bought.originalTransactionID, enabled: false)
            await delivery.deliverDue()
            await h.advance(months: 2)
            await delivery.deliverDue()
            // Two sandbox months on (ten minutes of the server's clock): Vera's subscription has run out.
            #expect(try await Self.shown(client, "vera") == ("winback", "lapsed"))
            #expect(try await Self.shown(client, "walt") == ("welcome", "newcomers"))
            // A month of the server's clock later, Walt, still without a subscription, is a veteran.
            h.clock.advance(by: 31 * 86_400)
            await h.simulator.advance()
            let walt = try await Self.shown(client, "walt")
            let waltDocument = try await client.call(.GET, "/v1/subscribers/walt").1
            #expect(walt == ("veterans", "veterans"), "\(walt) \(waltDocument)")
        }
    }

    @Test("bad rules are refused by name and change nothing; an offering a rule shows cannot be deleted")
    func refusals() async throws {
        try await E2E.withServers("sqlite") { _, client, store, _ in
            try await Self.setUp(
                client,
                rules: #"{"rules": [{"identifier": "r", "offering_id": "mac", "when": {"platforms": ["macOS"]}}]}"#)
            let before = try await store.dump()
            let bad: [(String, String, String)] = [
                (#"{"rules": [{"identifier": "x", "offering_id": "nothing"}]}"#, "invalid_targeting", "nothing"),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"platforms": ["Android"]}}]}"#,
                    "invalid_targeting", "Android"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"storefront": ["USA"]}}]}"#,
                    "unknown_field", "storefront"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"app_version": {"min": "2"}}}]}"#,
                    "unknown_field", "min"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"app_version": {"below": "v2"}}}]}"#,
                    "invalid_targeting", "v2"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac"}, {"identifier": "x", "offering_id": "mac"}]}"#,
                    "invalid_targeting", "rules[1].identifier"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"entitlement_state": "rich"}}]}"#,
                    "invalid_targeting", "rich"
                ),
                (
                    #"{"rules": [{"identifier": "x", "offering_id": "mac", "when": {"first_seen_days": {"below": -1}}}]}"#,
                    "invalid_targeting", "first_seen_days"
                ),
            ]
            for (body, code, names) in bad {
                let (status, answer) = try await client.call(
                    .PUT, "/v1/targeting", key: Self.secret, body: Data(body.utf8))
                let error = answer["error"] as? [String: Any]
                #expect(status == 400 && error?["code"] as? String == code, "\(body): \(answer)")
                let message = error?["message"] as? String ?? ""
                #expect(message.contains(names), "\(answer) names \(names)")
            }
            let (deleted, inUse) = try await client.call(.DELETE, "/v1/offerings/mac", key: Self.secret)
            #expect(deleted == 409 && (inUse["error"] as? [String: Any])?["code"] as? String == "offering_in_use")
            #expect(try await store.dump() == before)
            let (_, rules) = try await client.call(.GET, "/v1/targeting", key: Self.secret)
            #expect((rules["rules"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["r"])
        }
    }
}
