import Crypto
import Foundation
import NIOHTTP1
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// Played as an attacker holding the app's public key, over HTTP: the variant an id falls in cannot be computed
/// beforehand (the server keys its hash with a secret of its own), and ids made up to ask for offerings move no
/// result (only customers the server holds evidence for are counted; the rest are reported apart).
@Suite struct ExperimentAttackTests {
    typealias E2E = ServerEndToEndTests
    typealias Experiments = ExperimentsEndToEndTests

    /// The variant the unkeyed hash of (project, experiment, id) picks: what an attacker computes offline.
    static func predicted(_ id: String) -> String {
        let digest = SHA256.hash(data: Data("\(E2E.bundleID)\nprice-test\n\(id)".utf8))
        let bucket = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 10_000
        return bucket < 5_000 ? "a" : "b"
    }

    @Test(
        "ids chosen to land in variant b land by chance; 200 made-up ids leave the counted results as they were",
        arguments: TestDatabases.backends)
    func forgedEnrolments(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            try await Experiments.setUp(client)
            // Real customers: ten who bought.
            let buyers = (0..<10).map { "buyer\($0)" }
            let assigned = try await Experiments.variants(buyers, [client])
            for buyer in buyers { _ = try await client.buy(h, "premium.monthly", customer: buyer) }
            let (_, before) = try await client.call(.GET, "/v1/experiments/price-test/results", key: E2E.secretKey)

            // The attacker picks 200 ids the unkeyed hash puts in b and asks for their offerings.
            var forged: [String] = []
            var index = 0
            while forged.count < 200 {
                let id = "forged-\(index)"
                if Self.predicted(id) == "b" { forged.append(id) }
                index += 1
            }
            let landed = try await Experiments.variants(forged, [client])
            let inB = landed.values.filter { $0 == "b" }.count
            #expect((60...140).contains(inB), "\(inB) of 200 chosen ids landed in b: the attacker can choose")

            let (_, after) = try await client.call(.GET, "/v1/experiments/price-test/results", key: E2E.secretKey)
            let counted = { (results: [String: Any]) in
                (results["variants"] as? [[String: Any]] ?? []).map { variant in
                    variant.filter { $0.key != "enrolled_without_evidence" } as NSDictionary
                }
            }
            #expect(counted(after) == counted(before), "made-up ids changed the results")
            let apart = (after["variants"] as? [[String: Any]] ?? []).map {
                $0["enrolled_without_evidence"] as? Int ?? 0
            }
            #expect(apart.reduce(0, +) == 200 && apart == [200 - inB, inB])
            let enrolled = (after["variants"] as? [[String: Any]] ?? []).map { $0["enrolled"] as? Int ?? 0 }
            #expect(enrolled == ["a", "b"].map { name in assigned.values.filter { $0 == name }.count })
        }
    }

    @Test(
        "trust round three, item 5: made-up ids are enrolled only within the guest bound; past it nothing is written",
        arguments: TestDatabases.backends)
    func guestEnrolmentsBounded(_ backend: String) async throws {
        try await E2E.withServers(backend, adjusted: { $0.maximumAttributeGuests = 5 }) { h, client, _, _ in
            try await Experiments.setUp(client)
            // A customer who bought is never bounded.
            _ = try await client.buy(h, "premium.monthly", customer: "payer")
            #expect(try await Experiments.variant(client, "payer") != nil)
            let ghosts = (0..<30).map { "ghost-\($0)" }
            var enrolled: [String] = []
            for ghost in ghosts where try await Experiments.variant(client, ghost) != nil { enrolled.append(ghost) }
            #expect(enrolled.count == 5, "\(enrolled)")
            // The refused are answered as if no experiment ran, and asking again changes nothing.
            for ghost in ghosts.suffix(3) { #expect(try await Experiments.variant(client, ghost) == nil) }
            for ghost in enrolled { #expect(try await Experiments.variant(client, ghost) != nil) }
            let (_, results) = try await client.call(
                .GET, "/v1/experiments/price-test/results", key: E2E.secretKey)
            let apart = (results["variants"] as? [[String: Any]] ?? []).map {
                $0["enrolled_without_evidence"] as? Int ?? 0
            }
            #expect(apart.reduce(0, +) == 5, "\(results)")
            let (_, events) = try await client.call(.GET, "/v1/subscribers/ghost-29/events", key: E2E.secretKey)
            #expect((events["events"] as? [Any])?.isEmpty == true, "a refused guest has no experiment_enrolled event")
            // The bound is one for attributes and enrolments: a sixth guest's attributes are refused too.
            let (attributes, _) = try await client.call(
                .POST, "/v1/subscribers/ghost-29/attributes", body: Data(#"{"attributes": {"campaign": "x"}}"#.utf8))
            #expect(attributes == 409)
        }
    }

    @Test(
        "trust round three, item 4: a made-up id enrolled early and merged into a payer with the public key moves no variant",
        arguments: TestDatabases.backends)
    func mergedEnrolments(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            try await Experiments.setUp(client)
            // The attacker enrols made-up ids first: their enrolments are the earliest.
            let early = try await Experiments.variants((0..<12).map { "early-\($0)" }, [client])
            _ = try await client.buy(h, "premium.monthly", customer: "payer")
            let own = try #require(try await Experiments.variant(client, "payer"))
            let decoy = try #require(early.first { $0.value != own }?.key, "\(early) all in \(own)")
            let (merged, answer) = try await client.call(
                .POST, "/v1/subscribers/\(decoy)/alias", body: client.json(["new_app_user_id": "payer"]))
            #expect(merged == 200, "\(answer)")
            // The payer keeps its own variant, asked by either id.
            #expect(try await Experiments.variant(client, "payer") == own)
            #expect(try await Experiments.variant(client, decoy) == own)
        }
    }
}
