import Foundation
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Offerings over HTTP: the owner edits what the paywall sells with the secret key, the app reads it with the
/// public key, and a change made through one server is what every server answers within a second.
@Suite struct OfferingsEndToEndTests {
    typealias E2E = ServerEndToEndTests
    static let secret = E2E.secretKey

    /// An error answer's code.
    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static var monthly: [String: Any] {
        [
            "identifier": "default", "description": "The usual paywall",
            "packages": [
                ["identifier": "monthly", "product_id": "premium.monthly"],
                ["identifier": "annual", "product_id": "premium.annual"],
            ],
            "metadata": [
                "title": "Go Pro", "colors": ["accent": "#ff6600"], "features": ["sync", "themes"], "rank": 2,
            ],
        ]
    }

    @Test(
        "an offering is created, read, replaced and made current; the app is served it; the current one cannot go",
        arguments: TestDatabases.backends)
    func lifecycle(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, _, _ in
            let (empty, none) = try await client.call(.GET, "/v1/subscribers/ann/offerings")
            #expect(empty == 200 && (none["offerings"] as? [Any])?.isEmpty == true)
            #expect(none["current_offering_id"] == nil)
            let (created, offering) = try await client.call(
                .POST, "/v1/offerings", key: Self.secret, body: client.json(Self.monthly))
            #expect(created == 201 && offering["identifier"] as? String == "default")
            #expect((offering["metadata"] as? [String: Any])?["rank"] as? Int == 2)
            let (again, exists) = try await client.call(
                .POST, "/v1/offerings", key: Self.secret, body: client.json(Self.monthly))
            #expect(again == 409 && Self.code(exists) == "offering_exists")
            var sale = Self.monthly
            sale["identifier"] = "sale"
            sale["packages"] = [["identifier": "annual", "product_id": "premium.annual"]]
            #expect(try await client.call(.POST, "/v1/offerings", key: Self.secret, body: client.json(sale)).0 == 201)

            let (chosen, both) = try await client.call(
                .PUT, "/v1/offerings/current", key: Self.secret, body: client.json(["identifier": "sale"]))
            #expect(chosen == 200 && both["current_offering_id"] as? String == "sale")
            #expect(
                (both["offerings"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["default", "sale"])
            let (served, answer) = try await client.call(.GET, "/v1/subscribers/ann/offerings")
            #expect(served == 200 && answer["current_offering_id"] as? String == "sale")
            let decoded = try APICoding.decoder().decode(
                OfferingsResponse.self, from: JSONSerialization.data(withJSONObject: answer))
            #expect(decoded.offerings.first?.packages.map(\.productID) == ["premium.monthly", "premium.annual"])
            #expect(decoded.offerings.first?.metadata["colors"] == .object(["accent": .string("#ff6600")]))

            let (replaced, changed) = try await client.call(
                .PUT, "/v1/offerings/default", key: Self.secret,
                body: client.json(["packages": [["identifier": "monthly", "product_id": "basic.monthly"]]]))
            #expect(replaced == 200 && (changed["packages"] as? [Any])?.count == 1)
            let (_, one) = try await client.call(.GET, "/v1/offerings/default", key: Self.secret)
            #expect(((one["packages"] as? [[String: Any]])?.first?["product_id"] as? String) == "basic.monthly")
            #expect(one["description"] as? String == "" && (one["metadata"] as? [String: Any])?.isEmpty == true)

            let (refused, current) = try await client.call(.DELETE, "/v1/offerings/sale", key: Self.secret)
            #expect(refused == 409 && Self.code(current) == "offering_is_current")
            #expect(try await client.call(.DELETE, "/v1/offerings/default", key: Self.secret).0 == 204)
            let (gone, missing) = try await client.call(.GET, "/v1/offerings/default", key: Self.secret)
            #expect(gone == 404 && Self.code(missing) == "offering_not_found")
            #expect(
                try await client.call(
                    .PUT, "/v1/offerings/default", key: Self.secret,
                    body: client.json(
                        ["packages": [["identifier": "m", "product_id": "premium.monthly"]]])
                ).0 == 404)
            let (_, after) = try await client.call(.GET, "/v1/subscribers/ann/offerings")
            #expect((after["offerings"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["sale"])
            // The app's key reads; it never edits.
            #expect(try await client.call(.POST, "/v1/offerings", body: client.json(sale)).0 == 403)
            #expect(try await client.call(.GET, "/v1/offerings").0 == 403)
        }
    }

    /// Offerings that break a rule, each with the code it is refused with and a word the message must name.
    static var refusals: [(body: [String: Any], code: String, names: String)] {
        [
            (
                ["identifier": "current", "packages": [["identifier": "m", "product_id": "premium.monthly"]]],
                "invalid_offering", "current"
            ),
            (
                ["identifier": "bad id", "packages": [["identifier": "m", "product_id": "premium.monthly"]]],
                "invalid_offering", "bad id"
            ),
            (["identifier": "x", "packages": [] as [Any]], "invalid_offering", "packages"),
            (
                [
                    "identifier": "x",
                    "packages": [
                        ["identifier": "m", "product_id": "premium.monthly"],
                        ["identifier": "m", "product_id": "premium.annual"],
                    ],
                ], "invalid_offering", "packages[1].identifier"
            ),
            (
                ["identifier": "x", "packages": [["identifier": "m", "product_id": "gold.weekly"]]],
                "unknown_product", "gold.weekly"
            ),
            (
                [
                    "identifier": "x", "packages": [["identifier": "m", "product_id": "premium.monthly"]],
                    "metadata": ["copy": String(repeating: "a", count: 17_000)],
                ], "invalid_offering", "metadata"
            ),
            (
                [
                    "identifier": "x", "packages": [["identifier": "m", "product_id": "premium.monthly"]],
                    "metadata": [1, 2],
                ],
                "invalid_field", "metadata"
            ),
            (
                [
                    "identifier": "x", "packages": [["identifier": "m", "product_id": "premium.monthly"]],
                    "description": String(repeating: "d", count: 1_001),
                ], "invalid_offering", "description"
            ),
            (
                [
                    "identifier": "x", "packages": [["identifier": "m", "product_id": "premium.monthly"]],
                    "colour": "red",
                ],
                "unknown_field", "colour"
            ),
        ]
    }

    @Test(
        "a bad offering is refused naming the field and value, and changes nothing", arguments: TestDatabases.backends)
    func refusals(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, store, _ in
            let before = try await store.dump()
            for refusal in Self.refusals {
                let (status, body) = try await client.call(
                    .POST, "/v1/offerings", key: Self.secret, body: client.json(refusal.body))
                let message = (body["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(status == 400 && Self.code(body) == refusal.code, "\(refusal.code): \(status) \(body)")
                #expect(message.contains(refusal.names), "\(message) names \(refusal.names)")
            }
            // JSON nested past any sane depth is refused, not a crash.
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let nested = Data(
                #"{"identifier":"x","packages":[{"identifier":"m","product_id":"premium.monthly"}],"metadata":{"a":\#(deep)}}"#
                    .utf8)
            let (status, _) = try await client.call(.POST, "/v1/offerings", key: Self.secret, body: nested)
            #expect(status == 400)
            let (notCurrent, _) = try await client.call(
                .PUT, "/v1/offerings/current", key: Self.secret, body: client.json(["identifier": "nothing"]))
            #expect(notCurrent == 404)
            #expect(try await store.dump() == before)
            // A project holds at most so many offerings.
            for index in 0..<50 {
                var body = Self.monthly
                body["identifier"] = "o\(index)"
                #expect(
                    try await client.call(.POST, "/v1/offerings", key: Self.secret, body: client.json(body)).0 == 201)
            }
            let (full, tooMany) = try await client.call(
                .POST, "/v1/offerings", key: Self.secret, body: client.json(Self.monthly))
            #expect(full == 409 && Self.code(tooMany) == "too_many_offerings")
        }
    }

    @Test("two servers on one PostgreSQL database: a change through one is what the other answers within a second")
    func replicas() async throws {
        try await E2E.withTwoServers { _, a, b, _ in
            #expect(try await a.call(.POST, "/v1/offerings", key: Self.secret, body: a.json(Self.monthly)).0 == 201)
            // The second server reads and remembers the project's offerings...
            let (_, first) = try await b.call(.GET, "/v1/subscribers/ann/offerings")
            #expect((first["offerings"] as? [Any])?.count == 1 && first["current_offering_id"] == nil)
            // ...and hears the first server's change.
            _ = try await a.call(
                .PUT, "/v1/offerings/current", key: Self.secret, body: a.json(["identifier": "default"]))
            let changed = ContinuousClock.now
            var current: String?
            while current == nil, ContinuousClock.now - changed < .seconds(5) {
                current = try await b.call(.GET, "/v1/subscribers/ann/offerings").1["current_offering_id"] as? String
                if current == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(current == "default")
            #expect(ContinuousClock.now - changed < .seconds(1), "seen after \(ContinuousClock.now - changed)")
        }
    }
}
