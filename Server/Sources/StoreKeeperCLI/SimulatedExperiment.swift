import Foundation
import StoreKeeperAPI
import StoreKeeperServer

/// The experiment `storekeeper simulate --experiment` runs on the demo app: two offerings (the same products),
/// a 50/50 experiment between them started before the first day, customers in `treatment` converting from their
/// trial at another rate — so the run ends with results whose winner is known.
struct SimulatedExperiment {
    /// The experiment's identifier, `sim-<seed>`: the same seed makes the same assignment (a second run of a seed on
    /// one server is refused as `experiment_exists`).
    let identifier: String
    /// The server's API with the demo's secret key.
    let server: JSONCaller

    static let variants: [(identifier: String, weight: Int)] = [("control", 50), ("treatment", 50)]

    /// Each customer's variant, as the server assigns it: every id asks for offerings once (`concurrency` at a
    /// time), as a paywall would, and is enrolled. The server keys its assignment with a secret of its own, so the
    /// simulation learns the truth it simulates from the server's answers, as an attacker could not beforehand.
    /// - Throws: ``JSONCaller/Failure`` when an answer names no variant of the experiment.
    func assign(_ ids: [String], concurrency: Int) async throws -> [String: String] {
        let server = server
        let identifier = identifier
        return try await withThrowingTaskGroup(of: (String, String).self) { group in
            var assigned: [String: String] = [:]
            for (index, id) in ids.enumerated() {
                if index >= max(1, concurrency), let (done, variant) = try await group.next() {
                    assigned[done] = variant
                }
                group.addTask {
                    let answer = try await server.call("GET", APIPath.subscriberOfferings(id))
                    let experiment = answer["experiment"] as? [String: Any]
                    guard experiment?["identifier"] as? String == identifier,
                        let variant = experiment?["variant"] as? String
                    else {
                        throw JSONCaller.Failure(
                            call: "GET \(APIPath.subscriberOfferings(id))", status: 200, code: .unexpectedVariant,
                            message: "the answer names no variant of \(identifier)")
                    }
                    return (id, variant)
                }
            }
            for try await (done, variant) in group { assigned[done] = variant }
            return assigned
        }
    }

    /// Makes the offerings (unless they exist) and the experiment, and starts it.
    func start() async throws {
        for name in ["sim-control", "sim-treatment"] {
            do {
                try await server.call(
                    "POST", APIPath.offerings,
                    [
                        "identifier": name, "description": "storekeeper simulate --experiment",
                        "packages": [
                            ["identifier": "premium", "product_id": "premium.monthly"],
                            ["identifier": "basic", "product_id": "basic.monthly"],
                        ],
                    ])
            } catch let failure as JSONCaller.Failure where failure.code == .answered(.offeringExists) {}
        }
        try await server.call(
            "POST", APIPath.experiments,
            [
                "identifier": identifier,
                "variants": Self.variants.map {
                    ["identifier": $0.identifier, "offering_id": "sim-\($0.identifier)", "weight": $0.weight]
                },
            ])
        try await server.call("POST", APIEndpoint.startExperiment.path(identifier), [:])
    }

    /// The results, as the server answers them.
    func results() async throws -> [String: Any] {
        try await server.call("GET", APIEndpoint.getExperimentResults.path(identifier), timeout: 600)
    }

    /// The results in a line per variant.
    static func lines(_ results: [String: Any]) -> [String] {
        (results["variants"] as? [[String: Any]] ?? []).map { variant in
            String(
                format: "    %@: %d enrolled, conversion %.1f %%, P(best) %.3f, proceeds/customer %.2f",
                (variant["identifier"] as? String ?? "?") as NSString, variant["enrolled"] as? Int ?? 0,
                (variant["conversion_rate"] as? Double ?? 0) * 100,
                variant["conversion_probability_best"] as? Double ?? 0,
                variant["proceeds_per_customer"] as? Double ?? 0)
        }
    }
}
