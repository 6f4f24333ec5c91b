import Foundation
import NIOHTTP1
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// The public key is in every copy of the app and names no customer. Played as an attacker holding it, over HTTP,
/// on SQLite and PostgreSQL: what it sets on a customer steers no targeting rule or experiment audience unless the
/// rule says `"trust": "client"`, and it cannot fill the project with attributes for ids nobody bought with.
@Suite struct AttributeTrustAttackTests {
    typealias E2E = ServerEndToEndTests
    static let secret = E2E.secretKey

    static func set(_ client: E2E.Client, _ user: String, _ body: String, key: String = E2E.publicKey)
        async throws -> (Int, [String: Any])
    {
        try await client.call(.POST, "/v1/subscribers/\(user)/attributes", key: key, body: Data(body.utf8))
    }

    static func offerings(_ client: E2E.Client, _ user: String) async throws -> [String: Any] {
        let (status, body) = try await client.call(.GET, "/v1/subscribers/\(user)/offerings", timeout: .seconds(120))
        #expect(status == 200, "\(body)")
        return body
    }

    /// Three offerings: `default` current, `vip` for server-set `tier: gold`, `pro` for `plan_interest: pro`
    /// from anyone (`trust: client`).
    static func setUpTargeting(_ client: E2E.Client) async throws {
        for name in ["default", "vip", "pro"] {
            let body = #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
            #expect(try await client.call(.POST, "/v1/offerings", key: secret, body: Data(body.utf8)).0 == 201)
        }
        _ = try await client.call(
            .PUT, "/v1/offerings/current", key: secret, body: client.json(["identifier": "default"]))
        let rules = """
            {"rules": [
              {"identifier": "vip", "offering_id": "vip", "when": {"attributes": {"tier": "gold"}}},
              {"identifier": "pro", "offering_id": "pro", "when": {"attributes": {"plan_interest": "pro"}, "trust": "client"}}]}
            """
        let (saved, body) = try await client.call(.PUT, "/v1/targeting", key: secret, body: Data(rules.utf8))
        #expect(saved == 200, "\(body)")
    }

    @Test(
        "a public key's attribute moves nobody to a server-trusting offering or into an audience; a secret key's does",
        arguments: TestDatabases.backends)
    func targeting(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            try await Self.setUpTargeting(client)
            _ = try await client.buy(h, "premium.monthly", customer: "vic")
            // The attacker sets the victim's tier, and their own.
            for user in ["vic", "mallory"] {
                #expect(try await Self.set(client, user, #"{"attributes": {"tier": "gold"}}"#).0 == 200)
                let answer = try await Self.offerings(client, user)
                #expect(answer["targeting_rule"] == nil && answer["current_offering_id"] as? String == "default")
            }
            // The owner's backend sets it: now it counts.
            let (owned, _) = try await Self.set(client, "vic", #"{"attributes": {"tier": "gold"}}"#, key: Self.secret)
            #expect(owned == 200)
            #expect(try await Self.offerings(client, "vic")["targeting_rule"] as? String == "vip")
            // A rule that trusts the client reads the app's values.
            #expect(try await Self.set(client, "lee", #"{"attributes": {"plan_interest": "pro"}}"#).0 == 200)
            #expect(try await Self.offerings(client, "lee")["targeting_rule"] as? String == "pro")

            // An experiment whose audience is tier gold: the attacker's own gold does not enrol them.
            _ = try await client.call(.PUT, "/v1/targeting", key: Self.secret, body: Data(#"{"rules": []}"#.utf8))
            let experiment = """
                {"identifier": "gold-test", "audience": {"attributes": {"tier": "gold"}}, "variants": [
                  {"identifier": "a", "offering_id": "default", "weight": 50},
                  {"identifier": "b", "offering_id": "vip", "weight": 50}]}
                """
            let (created, why) = try await client.call(
                .POST, "/v1/experiments", key: Self.secret, body: Data(experiment.utf8))
            #expect(created == 201, "\(why)")
            #expect(try await client.call(.POST, "/v1/experiments/gold-test/start", key: Self.secret).0 == 200)
            #expect(try await Self.offerings(client, "mallory")["experiment"] == nil)
            #expect(try await Self.offerings(client, "vic")["experiment"] != nil)
        }
    }

    @Test("trust is server or client, and only beside an attributes condition; refused by name, nothing saved")
    func trustChecked() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            try await Self.setUpTargeting(client)
            for (when, named) in [
                (#"{"attributes": {"tier": "gold"}, "trust": "device"}"#, "rules[0].when.trust \"device\""),
                (#"{"platforms": ["iOS"], "trust": "client"}"#, "rules[0].when.trust applies to an attributes"),
            ] {
                let rules = #"{"rules": [{"identifier": "x", "offering_id": "vip", "when": \#(when)}]}"#
                let (status, body) = try await client.call(
                    .PUT, "/v1/targeting", key: Self.secret, body: Data(rules.utf8))
                let message = ((body["error"] as? [String: Any])?["message"] as? String) ?? ""
                #expect(status == 400 && message.contains(named), "\(body)")
            }
            let (_, current) = try await client.call(.GET, "/v1/targeting", key: Self.secret)
            #expect((current["rules"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["vip", "pro"])
        }
    }

    @Test(
        "past maximumAttributeGuests a public key's write for one more id without evidence is refused and stores nothing",
        arguments: TestDatabases.backends)
    func guests(_ backend: String) async throws {
        try await E2E.withServers(backend, adjusted: { $0.maximumAttributeGuests = 3 }) { h, client, _, _ in
            for user in ["g1", "g2", "g3"] {
                #expect(try await Self.set(client, user, #"{"attributes": {"campaign": "x"}}"#).0 == 200)
            }
            let (full, refusal) = try await Self.set(client, "g4", #"{"attributes": {"campaign": "x"}}"#)
            let error = refusal["error"] as? [String: Any]
            #expect(full == 409 && error?["code"] as? String == "too_many_guests", "\(refusal)")
            #expect((error?["message"] as? String)?.contains("maximumAttributeGuests") == true)
            let (_, g4) = try await client.call(.GET, "/v1/subscribers/g4", key: Self.secret)
            #expect(g4["attributes"] == nil, "nothing stored: \(g4)")
            // A guest already held may change its own; removing with null is never refused.
            #expect(try await Self.set(client, "g1", #"{"attributes": {"campaign": "y"}}"#).0 == 200)
            #expect(try await Self.set(client, "g5", #"{"attributes": {"campaign": null}}"#).0 == 200)
            // The owner's backend, and a customer who bought, are not bounded.
            #expect(try await Self.set(client, "g6", #"{"attributes": {"tier": "gold"}}"#, key: Self.secret).0 == 200)
            _ = try await client.buy(h, "premium.monthly", customer: "payer")
            #expect(try await Self.set(client, "payer", #"{"attributes": {"campaign": "x"}}"#).0 == 200)
            // A guest removed frees its place.
            #expect(try await client.call(.DELETE, "/v1/subscribers/g2/attributes").0 == 204)
            #expect(try await Self.set(client, "g4", #"{"attributes": {"campaign": "x"}}"#).0 == 200)
            #expect(try await Self.set(client, "g7", #"{"attributes": {"campaign": "x"}}"#).0 == 409)
        }
    }

    @Test(
        "trust round three, item 5: an id made by an alias is a guest like any other, its attributes bounded",
        arguments: TestDatabases.backends)
    func guestsMadeByAliases(_ backend: String) async throws {
        try await E2E.withServers(backend, adjusted: { $0.maximumAttributeGuests = 5 }) { _, client, _, _ in
            for number in 1...5 {
                #expect(try await Self.set(client, "g\(number)", #"{"attributes": {"campaign": "x"}}"#).0 == 200)
            }
            let big = String(repeating: "v", count: 400)
            for round in 0..<10 {
                let (aliased, answer) = try await client.call(
                    .POST, "/v1/subscribers/ghost-src-\(round)/alias",
                    body: client.json(["new_app_user_id": "ghost-\(round)"]))
                #expect(aliased == 200, "\(answer)")
                let attributes = (0..<50).map { "\"a\($0)\": \"\(big)\"" }.joined(separator: ", ")
                let (status, refusal) = try await Self.set(
                    client, "ghost-\(round)", "{\"attributes\": {\(attributes)}}")
                #expect(
                    status == 409 && (refusal["error"] as? [String: Any])?["code"] as? String == "too_many_guests",
                    "round \(round): \(status)")
                let (_, ghost) = try await client.call(.GET, "/v1/subscribers/ghost-\(round)", key: Self.secret)
                #expect(ghost["attributes"] == nil, "nothing stored: \(ghost)")
            }
        }
    }
}
