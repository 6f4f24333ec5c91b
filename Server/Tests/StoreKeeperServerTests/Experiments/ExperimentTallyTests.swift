import Foundation
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// An experiment's results are kept as a rollup: built once from every enrolment, then moved on by what the event
/// feed says changed. Whatever happened between two reads, the rollup equals what a recount from every enrolment
/// finds, and both equal counts made by hand.
@Suite struct ExperimentTallyTests {
    typealias E2E = ServerEndToEndTests
    typealias Setup = ExperimentsEndToEndTests
    static let secret = E2E.secretKey

    /// What one variant's results say, in the fields compared here.
    struct Counts: Hashable, CustomStringConvertible {
        var enrolled = 0
        var withoutEvidence = 0
        var conversions = 0
        var trials = 0
        var refunds = 0
        var revenue = 0.0

        init() {}

        init(_ variant: [String: Any]) {
            enrolled = variant["enrolled"] as? Int ?? -1
            withoutEvidence = variant["enrolled_without_evidence"] as? Int ?? -1
            conversions = variant["paid_conversions"] as? Int ?? -1
            trials = variant["trials"] as? Int ?? -1
            refunds = variant["refunds"] as? Int ?? -1
            // Per customer in the answer; a sum here, rounded to cents so a recount compares equal.
            revenue = ((variant["revenue_per_customer"] as? Double ?? -1) * Double(enrolled) * 100).rounded() / 100
        }

        var description: String {
            "enrolled \(enrolled), apart \(withoutEvidence), paid \(conversions), trials \(trials), refunds \(refunds), revenue \(revenue)"
        }
    }

    /// The results' counts by variant.
    static func counts(_ client: E2E.Client) async throws -> [String: Counts] {
        let (status, results) = try await client.call(
            .GET, "/v1/experiments/price-test/results", key: Self.secret, timeout: .seconds(120))
        #expect(status == 200, "\(results)")
        var counts: [String: Counts] = [:]
        for variant in results["variants"] as? [[String: Any]] ?? [] {
            counts[variant["identifier"] as? String ?? "?"] = Counts(variant)
        }
        return counts
    }

    @Test(
        "purchases, a refund, an alias merge and late enrolments move the rollup to what a recount and counts by hand find",
        arguments: TestDatabases.backends)
    func movedOn(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, store, delivery in
            try await Setup.setUp(client)
            let users = (0..<40).map { "t\($0)" }
            var variants = try await Setup.variants(users, [client])
            // The first read builds the rollup: everyone is counted apart, nobody bought.
            let built = try await Self.counts(client)
            #expect(built["a"]?.withoutEvidence == variants.values.filter { $0 == "a" }.count)
            #expect(built["b"]?.withoutEvidence == variants.values.filter { $0 == "b" }.count)
            #expect(built.values.map(\.enrolled) == [0, 0])

            // Then: t0…t11 pay, t12…t17 start a trial, t0's purchase is refunded, ten customers are enrolled late,
            // and an anonymous id enrolled after t20 buys and is merged into t20 (who keeps their earlier variant).
            var refunded = ""
            for user in users[0..<12] {
                let (bought, status) = try await client.buy(h, "premium.monthly", customer: user)
                #expect(status == 200)
                if user == "t0" { refunded = bought.transactionID }
            }
            for user in users[12..<18] {
                try await client.buy(h, "premium.monthly", customer: user, options: .init(offer: .introductory))
            }
            try await h.simulator.refund(transactionID: refunded, reason: 1)
            await delivery.deliverDue()
            let late = (40..<50).map { "t\($0)" }
            variants.merge(try await Setup.variants(late, [client])) { old, _ in old }
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            #expect(try await Setup.variant(client, anonymous) != nil)
            try await client.buy(h, "premium.monthly", customer: "t20-device", appUserID: anonymous)
            let (merged, _) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "t20"]),
                timeout: .seconds(120))
            #expect(merged == 200)

            // By hand: the payers (t0 refunded), the trials and t20 have evidence; everyone else is apart; the
            // anonymous id's own enrolment is not counted at all.
            var expected: [String: Counts] = ["a": Counts(), "b": Counts()]
            for user in users + late {
                let variant = try #require(variants[user])
                let index = Int(user.dropFirst())!
                guard index < 18 || index == 20 else {
                    expected[variant]?.withoutEvidence += 1
                    continue
                }
                expected[variant]?.enrolled += 1
                if index < 12 || index == 20 {
                    expected[variant]?.conversions += 1
                    // The e2e server reports in EUR at 2 per USD; a refund takes the price back.
                    expected[variant]?.revenue += index == 0 ? 0 : 19.98
                } else {
                    expected[variant]?.trials += 1
                }
                if index == 0 { expected[variant]?.refunds += 1 }
            }
            for (key, counts) in expected { expected[key]?.revenue = (counts.revenue * 100).rounded() / 100 }

            // Four reads at once move the rollup once: each answers the counts by hand.
            let reads = try await withThrowingTaskGroup(of: [String: Counts].self) { group in
                for _ in 0..<4 { group.addTask { try await Self.counts(client) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for read in reads { #expect(read == expected, "\(read) against \(expected)") }

            // A recount from every enrolment (the rollup thrown away) finds the same.
            _ = try await store.experiments.resetExperimentTally(
                projectID: E2E.project.id, experiment: "price-test", mark: "thrown away", cursor: nil)
            #expect(try await Self.counts(client) == expected)
            let tally = try #require(
                try await store.experiments.experimentTally(projectID: E2E.project.id, experiment: "price-test"))
            #expect(tally.ready && tally.mark != "thrown away")
            #expect(tally.variants.values.map(\.enrolled).reduce(0, +) == 19)
        }
    }
}
