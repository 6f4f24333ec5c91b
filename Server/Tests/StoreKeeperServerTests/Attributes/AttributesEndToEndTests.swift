import Foundation
import NIOHTTP1
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Subscriber attributes over HTTP: set and removed with the app's key, shown with the subscriber, following a
/// merge, bounded, usable in targeting, and seen by every replica.
@Suite struct AttributesEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func set(_ client: E2E.Client, _ user: String, _ body: String) async throws -> (Int, [String: Any]) {
        try await client.call(.POST, "/v1/subscribers/\(user)/attributes", body: Data(body.utf8))
    }

    /// The customer's attributes as the owner sees them (secret key), or as the app does (`key`: the public key).
    static func attributes(_ client: E2E.Client, _ user: String, key: String = E2E.secretKey) async throws
        -> [String: String]?
    {
        let (status, body) = try await client.call(.GET, "/v1/subscribers/\(user)", key: key)
        #expect(status == 200)
        return body["attributes"] as? [String: String]
    }

    @Test(
        "set, shown with the subscriber, removed one by one (null) or all; a customer never seen before included",
        arguments: TestDatabases.backends)
    func lifecycle(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            #expect(try await Self.attributes(client, "ivy") == nil)
            let (status, answer) = try await Self.set(
                client, "ivy", #"{"attributes": {"$email": "ivy@example.com", "plan_interest": "pro"}}"#)
            // The public key is in every copy of the app: it is never answered who a person is.
            #expect(status == 200 && (answer["attributes"] as? [String: String]) == ["plan_interest": "pro"])
            #expect(try await Self.attributes(client, "ivy", key: E2E.publicKey) == ["plan_interest": "pro"])
            #expect(try await Self.attributes(client, "ivy") == ["$email": "ivy@example.com", "plan_interest": "pro"])
            // A purchase does not touch them, and the answer after it still shows them.
            try await client.buy(h, "premium.monthly", customer: "ivy")
            #expect(try await Self.attributes(client, "ivy")?["$email"] == "ivy@example.com")
            _ = try await Self.set(client, "ivy", #"{"attributes": {"plan_interest": null, "$displayName": "Ivy"}}"#)
            #expect(try await Self.attributes(client, "ivy") == ["$email": "ivy@example.com", "$displayName": "Ivy"])
            #expect(try await Self.attributes(client, "ivy", key: E2E.publicKey) == nil)
            let (deleted, _) = try await client.call(.DELETE, "/v1/subscribers/ivy/attributes")
            #expect(deleted == 204)
            #expect(try await Self.attributes(client, "ivy") == nil)
        }
    }

    @Test(
        "webhook events carry the customer's attributes as they were when the event was written",
        arguments: TestDatabases.backends)
    func webhookEvents(_ backend: String) async throws {
        // The tenant servers run the server's own announcer: every write also writes the outbox.
        try await TenantServers.with(backend) { servers in
            let client = servers.client
            let (added, _) = try await client.call(
                .POST, "/v1/webhooks", key: TenantServers.secretA, body: client.json(["url": "http://127.0.0.1:9/hook"])
            )
            #expect(added == 201)
            let (set, _) = try await client.call(
                .POST, "/v1/subscribers/nia/attributes", key: TenantServers.publicA,
                body: Data(#"{"attributes": {"$email": "nia@example.com", "tier": "gold"}}"#.utf8))
            #expect(set == 200)
            for customer in ["nia", "odo"] {
                let bought = try await servers.buy(TenantServers.appA, customer: customer)
                let (posted, _) = try await client.call(
                    .POST, "/v1/transactions", key: TenantServers.publicA,
                    body: client.json(["app_user_id": customer, "signed_transaction": bought.token]))
                #expect(posted == 200)
            }
            let bodies = try await servers.store.database.read(
                "SELECT app_user_id, body FROM webhook_events ORDER BY app_user_id", []
            ).compactMap { row -> (String, [String: Any])? in
                guard let user = row["app_user_id"]?.string, let body = row["body"]?.string,
                    let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                else { return nil }
                return (user, object)
            }
            let nia = try #require(bodies.first { $0.0.hasSuffix(":nia") }?.1, "\(bodies.map(\.0))")
            #expect(nia["attributes"] as? [String: String] == ["$email": "nia@example.com", "tier": "gold"])
            let odo = try #require(bodies.first { $0.0.hasSuffix(":odo") }?.1)
            #expect((odo["attributes"] as? [String: String])?.isEmpty == true)
        }
    }

    @Test(
        "the customer list filters by an attribute the backend set, or the app's with attribute_source, and says whose",
        arguments: TestDatabases.backends)
    func listFilter(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            for customer in ["ann", "bob", "cy", "dee"] {
                try await client.buy(h, "premium.monthly", customer: customer)
            }
            func setByBackend(_ user: String, _ body: String) async throws {
                let (status, _) = try await client.call(
                    .POST, "/v1/subscribers/\(user)/attributes", key: E2E.secretKey, body: Data(body.utf8))
                #expect(status == 200)
            }
            try await setByBackend("ann", #"{"attributes": {"plan_interest": "pro"}}"#)
            try await setByBackend("cy", #"{"attributes": {"plan_interest": "pro:max"}}"#)
            // Trust round three, item 7: the app set the same value beside one the backend set.
            #expect(try await Self.set(client, "dee", #"{"attributes": {"plan_interest": "pro"}}"#).0 == 200)
            func listed(_ query: String) async throws -> [String: String] {
                let (status, page) = try await client.call(.GET, "/v1/subscribers?\(query)", key: E2E.secretKey)
                #expect(status == 200, "\(page)")
                return Dictionary(
                    uniqueKeysWithValues: (page["subscribers"] as? [[String: Any]] ?? []).map {
                        ($0["app_user_id"] as? String ?? "", $0["attribute_source"] as? String ?? "")
                    })
            }
            #expect(try await listed("attribute=plan_interest:pro") == ["ann": "server"])
            #expect(try await listed("attribute=plan_interest:pro&attribute_source=server") == ["ann": "server"])
            #expect(try await listed("attribute=plan_interest:pro&attribute_source=client") == ["dee": "client"])
            #expect(
                try await listed("attribute=plan_interest:pro&attribute_source=any") == [
                    "ann": "server", "dee": "client",
                ])
            #expect(try await listed("attribute=plan_interest:pro:max") == ["cy": "server"])
            let (_, _, csv) = try await MetricsEndToEndTests.raw(
                client.base, "/v1/subscribers?attribute=plan_interest:pro&attribute_source=any&format=csv",
                key: E2E.secretKey)
            let lines = csv.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasSuffix(",attribute_source") == true && lines.count == 3, "\(csv)")
            #expect(lines.dropFirst().map { $0.split(separator: ",").last.map(String.init) } == ["server", "client"])
            for query in ["attribute=nocolon", "attribute=plan_interest:pro&attribute_source=app"] {
                let (bad, answer) = try await client.call(.GET, "/v1/subscribers?\(query)", key: E2E.secretKey)
                #expect(bad == 400 && (answer["error"] as? [String: Any])?["code"] as? String == "invalid_parameter")
            }
        }
    }

    @Test(
        "what the owner's backend set, the app's public key can neither overwrite nor remove; its own it can",
        arguments: TestDatabases.backends)
    func serverSetProtected(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, store, _ in
            let (owner, _) = try await client.call(
                .POST, "/v1/subscribers/vic/attributes", key: E2E.secretKey,
                body: Data(#"{"attributes": {"$email": "vic@example.com", "tier": "gold"}}"#.utf8))
            #expect(owner == 200)
            #expect(try await Self.set(client, "vic", #"{"attributes": {"plan_interest": "pro"}}"#).0 == 200)
            let before = try await store.dump()
            // Played as anyone holding a copy of the app: overwrite the backend's tier, move its email, remove it.
            for body in [
                #"{"attributes": {"tier": "platinum"}}"#, #"{"attributes": {"$email": "mallory@example.com"}}"#,
                #"{"attributes": {"tier": null, "plan_interest": null}}"#,
            ] {
                let (status, answer) = try await Self.set(client, "vic", body)
                let error = answer["error"] as? [String: Any]
                #expect(status == 403 && error?["code"] as? String == "secret_key_required", "\(body): \(answer)")
            }
            #expect(try await store.dump() == before, "a refused change changes nothing")
            // A public key's DELETE removes what the app set; the backend's values stay.
            let (deleted, _) = try await client.call(.DELETE, "/v1/subscribers/vic/attributes")
            #expect(deleted == 204)
            #expect(try await Self.attributes(client, "vic") == ["$email": "vic@example.com", "tier": "gold"])
            // The secret key changes and removes anything.
            let (changed, _) = try await client.call(
                .POST, "/v1/subscribers/vic/attributes", key: E2E.secretKey,
                body: Data(#"{"attributes": {"tier": null}}"#.utf8))
            #expect(changed == 200)
            #expect(try await Self.attributes(client, "vic") == ["$email": "vic@example.com"])
        }
    }

    @Test("bad names and values, and a 51st custom attribute, are refused by name and change nothing")
    func refusals() async throws {
        try await E2E.withServers("sqlite") { _, client, store, _ in
            let fifty = (0..<50).map { "\"k\($0)\": \"v\"" }.joined(separator: ", ")
            #expect(try await Self.set(client, "jo", #"{"attributes": {\#(fifty)}}"#).0 == 200)
            let before = try await store.dump()
            let bad: [(String, String, String)] = [
                (#"{"attributes": {"$secret": "x"}}"#, "invalid_attribute", "$secret"),
                (#"{"attributes": {"has space": "x"}}"#, "invalid_attribute", "has space"),
                (#"{"attributes": {"long": "\#(String(repeating: "x", count: 501))"}}"#, "invalid_attribute", "501"),
                (#"{"attributes": {"k50": "v"}}"#, "too_many_attributes", "51"),
                (#"{"attributes": {}}"#, "invalid_attribute", "attributes"),
                (#"{"attributes": {"k1": 3}}"#, "invalid_field", "attributes.k1 must be a string"),
                // Text that reads one way and sorts or compares another: bidi overrides and isolates, zero-width
                // characters, a line separator.
                (#"{"attributes": {"$displayName": "evil\u202egnp.exe"}}"#, "invalid_attribute", "bidirectional"),
                (#"{"attributes": {"$email": "vic\u200b@example.com"}}"#, "invalid_attribute", "$email"),
                (#"{"attributes": {"campaign_tag": "a\u2066b\u2069"}}"#, "invalid_attribute", "campaign_tag"),
                (#"{"attributes": {"note": "one\u2028two"}}"#, "invalid_attribute", "note"),
                (#"{"attributes": {"note": "\ufeffbom"}}"#, "invalid_attribute", "note"),
            ]
            for (body, code, names) in bad {
                let (status, answer) = try await Self.set(client, "jo", body)
                let error = answer["error"] as? [String: Any]
                let message = error?["message"] as? String ?? ""
                #expect(status == 400 && error?["code"] as? String == code, "\(body): \(answer)")
                #expect(message.contains(names), "\(message) names \(names)")
            }
            #expect(try await store.dump() == before)
            // Reserved names do not count towards the fifty.
            #expect(try await Self.set(client, "jo", #"{"attributes": {"$email": "jo@example.com"}}"#).0 == 200)
        }
    }

    @Test(
        "a merge moves the attributes to the account (the account's own value wins); a rule trusting the client reads them"
    )
    func mergeAndTargeting() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            _ = try await Self.set(client, anonymous, #"{"attributes": {"$email": "a@x", "plan_interest": "pro"}}"#)
            _ = try await Self.set(client, "kai", #"{"attributes": {"$email": "kai@x"}}"#)
            let (merged, _) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "kai"]))
            #expect(merged == 200)
            #expect(try await Self.attributes(client, "kai") == ["$email": "kai@x", "plan_interest": "pro"])
            #expect(try await Self.attributes(client, anonymous) == ["$email": "kai@x", "plan_interest": "pro"])

            for name in ["default", "pro-paywall"] {
                let body = #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
                _ = try await client.call(.POST, "/v1/offerings", key: E2E.secretKey, body: Data(body.utf8))
            }
            _ = try await client.call(
                .PUT, "/v1/offerings/current", key: E2E.secretKey, body: client.json(["identifier": "default"]))
            let rules =
                #"{"rules": [{"identifier": "pro", "offering_id": "pro-paywall", "when": {"attributes": {"plan_interest": "pro"}, "trust": "client"}}]}"#
            #expect(try await client.call(.PUT, "/v1/targeting", key: E2E.secretKey, body: Data(rules.utf8)).0 == 200)
            #expect(
                try await client.call(.GET, "/v1/subscribers/kai/offerings").1["targeting_rule"] as? String == "pro")
            #expect(try await client.call(.GET, "/v1/subscribers/lee/offerings").1["targeting_rule"] == nil)
            // Set now, seen at once.
            _ = try await Self.set(client, "lee", #"{"attributes": {"plan_interest": "pro"}}"#)
            #expect(
                try await client.call(.GET, "/v1/subscribers/lee/offerings").1["targeting_rule"] as? String == "pro")
        }
    }

    @Test("two servers on one PostgreSQL database: an attribute set through one is shown by the other within a second")
    func replicas() async throws {
        try await E2E.withTwoServers { _, a, b, _ in
            #expect(try await Self.attributes(b, "max") == nil)  // read and remembered by the second server
            _ = try await Self.set(a, "max", #"{"attributes": {"$email": "max@example.com"}}"#)
            let changed = ContinuousClock.now
            var seen: [String: String]?
            while seen == nil, ContinuousClock.now - changed < .seconds(5) {
                seen = try await Self.attributes(b, "max")
                if seen == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(seen == ["$email": "max@example.com"])
            #expect(ContinuousClock.now - changed < .seconds(1), "seen after \(ContinuousClock.now - changed)")
        }
    }
}
