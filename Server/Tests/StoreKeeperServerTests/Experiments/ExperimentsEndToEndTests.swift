import Foundation
import NIOHTTP1
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Experiments over HTTP: customers who ask for offerings while an experiment runs are enrolled once, by weight,
/// in the same variant on every replica and after an alias merge; results count what each variant's customers
/// did, as computed by hand.
@Suite struct ExperimentsEndToEndTests {
    typealias E2E = ServerEndToEndTests
    static let secret = E2E.secretKey

    /// Two offerings and a 50/50 experiment on them, started.
    static func setUp(_ client: E2E.Client, weights: (Int, Int) = (50, 50)) async throws {
        for name in ["control", "cheaper"] {
            let body = #"{"identifier":"\#(name)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
            #expect(
                try await client.call(
                    .POST, "/v1/offerings", key: Self.secret, body: Data(body.utf8), timeout: .seconds(120)
                ).0 == 201)
        }
        _ = try await client.call(
            .PUT, "/v1/offerings/current", key: Self.secret, body: client.json(["identifier": "control"]),
            timeout: .seconds(120))
        let experiment = """
            {"identifier": "price-test", "variants": [
              {"identifier": "a", "offering_id": "control", "weight": \(weights.0)},
              {"identifier": "b", "offering_id": "cheaper", "weight": \(weights.1)}]}
            """
        let (created, body) = try await client.call(
            .POST, "/v1/experiments", key: Self.secret, body: Data(experiment.utf8), timeout: .seconds(120))
        #expect(created == 201 && body["status"] as? String == "draft", "\(body)")
        let (started, running) = try await client.call(
            .POST, "/v1/experiments/price-test/start", key: Self.secret, timeout: .seconds(120))
        #expect(started == 200 && running["status"] as? String == "running", "\(running)")
    }

    /// The variant a customer is shown (and the offering it serves).
    static func variant(_ client: E2E.Client, _ user: String) async throws -> String? {
        // Patient: beside the whole suite on two cores a request can wait long for its turn.
        let (status, body) = try await client.call(.GET, "/v1/subscribers/\(user)/offerings", timeout: .seconds(120))
        #expect(status == 200, "\(body)")
        let experiment = body["experiment"] as? [String: Any]
        let variant = experiment?["variant"] as? String
        let offering = body["current_offering_id"] as? String
        #expect(variant == nil || offering == (variant == "a" ? "control" : "cheaper"), "\(body)")
        return variant
    }

    /// `users`' variants, asked 8 at a time, alternating between `clients`.
    static func variants(_ users: [String], _ clients: [E2E.Client]) async throws -> [String: String] {
        try await withThrowingTaskGroup(of: (String, String?).self) { group in
            var result: [String: String] = [:]
            for (index, user) in users.enumerated() {
                if index >= 8, let (done, variant) = try await group.next() { result[done] = variant }
                group.addTask { (user, try await Self.variant(clients[index % clients.count], user)) }
            }
            for try await (done, variant) in group { result[done] = variant }
            return result
        }
    }

    @Test(
        "2,000 customers on two PostgreSQL replicas: 46–54 % in each variant, each stable across calls, replicas and an alias merge"
    )
    func enrolment() async throws {
        try await E2E.withTwoServers { _, a, b, _ in
            try await Self.setUp(a)
            let users = (0..<2_000).map { "c\($0)" }
            let first = try await Self.variants(users, [a, b])
            #expect(first.count == 2_000)
            let share = Double(first.values.filter { $0 == "a" }.count) / 2_000
            #expect((0.46...0.54).contains(share), "variant a has \(share)")
            // Asked again, on the other replica: the same variant for everyone.
            let again = try await Self.variants(users, [b, a])
            #expect(again == first)
            let (_, results) = try await a.call(
                .GET, "/v1/experiments/price-test/results", key: Self.secret, timeout: .seconds(300))
            // Nobody bought: every id is counted apart, none in the results.
            let variants = results["variants"] as? [[String: Any]] ?? []
            #expect(variants.map { $0["enrolled"] as? Int ?? -1 } == [0, 0])
            #expect(
                variants.map { $0["enrolled_without_evidence"] as? Int ?? 0 } == [
                    first.values.filter { $0 == "a" }.count, first.values.filter { $0 == "b" }.count,
                ])
            // Enrolment is one event, however often the customer asks.
            let (_, history) = try await a.call(
                .GET, "/v1/subscribers/c7/events", key: Self.secret, timeout: .seconds(120))
            let enrolments = (history["events"] as? [[String: Any]] ?? []).filter {
                $0["type"] as? String == "experiment_enrolled"
            }
            #expect(enrolments.count == 1)

            // A device's anonymous id enrolled after the account did: merged into the account, it keeps the
            // account's (earlier) variant, on both replicas.
            let account = try #require(users.first { first[$0] == "a" })
            var anonymous = ""
            for _ in 0..<64 {
                anonymous = "$anonymous:" + UUID().uuidString.lowercased()
                if try await Self.variant(b, anonymous) == "b" { break }
            }
            #expect(try await Self.variant(a, anonymous) == "b")
            let (merged, _) = try await b.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: b.json(["new_app_user_id": account]),
                timeout: .seconds(120))
            #expect(merged == 200)
            for client in [a, b] {
                #expect(try await Self.variant(client, anonymous) == "a")
                #expect(try await Self.variant(client, account) == "a")
            }
        }
    }

    @Test("results after purchases match counts made by hand", arguments: TestDatabases.backends)
    func results(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            try await Self.setUp(client)
            let users = (0..<60).map { "r\($0)" }
            let variants = try await Self.variants(users, [client])
            // r0…r19 pay at once; r20…r29 start a free trial; the rest buy nothing (and have no evidence).
            for user in users[0..<20] { try await client.buy(h, "premium.monthly", customer: user) }
            for user in users[20..<30] {
                try await client.buy(h, "premium.monthly", customer: user, options: .init(offer: .introductory))
            }
            let (status, results) = try await client.call(
                .GET, "/v1/experiments/price-test/results", key: Self.secret)
            #expect(status == 200, "\(results)")
            // The e2e server reports money in EUR at 2 per USD.
            #expect(results["currency"] as? String == "EUR")
            for variant in results["variants"] as? [[String: Any]] ?? [] {
                let name = try #require(variant["identifier"] as? String)
                // Only customers the server holds evidence for are counted; the ids that bought nothing apart.
                let members = users[0..<30].filter { variants[$0] == name }
                let payers = users[0..<20].filter { variants[$0] == name }.count
                let trials = users[20..<30].filter { variants[$0] == name }.count
                #expect(variant["enrolled"] as? Int == members.count)
                #expect(
                    variant["enrolled_without_evidence"] as? Int == users[30...].filter { variants[$0] == name }.count)
                #expect(variant["paid_conversions"] as? Int == payers)
                #expect(variant["trials"] as? Int == trials)
                let revenue = 9.99 * 2 * Double(payers) / Double(members.count)
                #expect(abs((variant["revenue_per_customer"] as? Double ?? -1) - revenue) < 1e-6, "\(variant)")
                // No tax configured; a first year's commission is 30 %.
                #expect(abs((variant["proceeds_per_customer"] as? Double ?? -1) - revenue * 0.7) < 1e-6, "\(variant)")
                #expect(variant["refunds"] as? Int == 0)
                let best = variant["conversion_probability_best"] as? Double ?? -1
                #expect((0...1).contains(best))
                #expect((variant["conversion_vs_baseline"] != nil) == (name == "b"))
            }
        }
    }

    @Test("bad experiments are refused by name; a stopped experiment enrols no one and does not start again")
    func lifecycle() async throws {
        try await E2E.withServers("sqlite") { _, client, store, _ in
            try await Self.setUp(client)
            let before = try await store.dump()
            let bad: [(String, String, String)] = [
                (
                    #"{"identifier": "x", "variants": [{"identifier": "a", "offering_id": "control", "weight": 100}]}"#,
                    "invalid_experiment", "variants"
                ),
                (
                    #"{"identifier": "x", "variants": [{"identifier": "a", "offering_id": "control", "weight": 40}, {"identifier": "b", "offering_id": "cheaper", "weight": 40}]}"#,
                    "invalid_experiment", "80"
                ),
                (
                    #"{"identifier": "x", "variants": [{"identifier": "a", "offering_id": "control", "weight": 50}, {"identifier": "b", "offering_id": "nothing", "weight": 50}]}"#,
                    "invalid_experiment", "nothing"
                ),
                (
                    #"{"identifier": "x", "variants": [{"identifier": "a", "offering_id": "control", "weight": 50}, {"identifier": "a", "offering_id": "cheaper", "weight": 50}]}"#,
                    "invalid_experiment", "variants[1]"
                ),
                (
                    #"{"identifier": "x", "variants": [{"identifier": "a", "offering_id": "control", "weight": 50, "share": 1}, {"identifier": "b", "offering_id": "cheaper", "weight": 50}]}"#,
                    "unknown_field", "share"
                ),
                (
                    #"{"identifier": "x", "audience": {"platform": ["iOS"]}, "variants": [{"identifier": "a", "offering_id": "control", "weight": 50}, {"identifier": "b", "offering_id": "cheaper", "weight": 50}]}"#,
                    "unknown_field", "platform"
                ),
                (
                    #"{"identifier": "price-test", "variants": [{"identifier": "a", "offering_id": "control", "weight": 50}, {"identifier": "b", "offering_id": "cheaper", "weight": 50}]}"#,
                    "experiment_exists", "price-test"
                ),
            ]
            for (body, code, names) in bad {
                let (status, answer) = try await client.call(
                    .POST, "/v1/experiments", key: Self.secret, body: Data(body.utf8))
                let error = answer["error"] as? [String: Any]
                let message = error?["message"] as? String ?? ""
                #expect(status >= 400 && error?["code"] as? String == code, "\(body): \(answer)")
                #expect(message.contains(names), "\(message) names \(names)")
            }
            #expect(try await store.dump() == before)
            let (inUse, _) = try await client.call(.DELETE, "/v1/offerings/cheaper", key: Self.secret)
            #expect(inUse == 409)
            let (again, _) = try await client.call(.POST, "/v1/experiments/price-test/start", key: Self.secret)
            #expect(again == 409)
            let (stopped, body) = try await client.call(.POST, "/v1/experiments/price-test/stop", key: Self.secret)
            #expect(stopped == 200 && body["status"] as? String == "stopped" && body["stopped_at"] != nil)
            #expect(try await Self.variant(client, "late") == nil)
            let (restarted, _) = try await client.call(.POST, "/v1/experiments/price-test/start", key: Self.secret)
            #expect(restarted == 409)
            let (missing, _) = try await client.call(.GET, "/v1/experiments/nothing/results", key: Self.secret)
            #expect(missing == 404)
            // An audience: only macOS customers are enrolled.
            let mac = """
                {"identifier": "mac-test", "audience": {"platforms": ["macOS"]}, "variants": [
                  {"identifier": "a", "offering_id": "control", "weight": 1},
                  {"identifier": "b", "offering_id": "cheaper", "weight": 99}]}
                """
            #expect(try await client.call(.POST, "/v1/experiments", key: Self.secret, body: Data(mac.utf8)).0 == 201)
            #expect(try await client.call(.POST, "/v1/experiments/mac-test/start", key: Self.secret).0 == 200)
            #expect(try await Self.variant(client, "phone-user") == nil)
        }
    }
}
