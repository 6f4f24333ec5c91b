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

    /// The variant customer `id` is in.
    func variant(_ id: String) -> String {
        ExperimentBucket.variant(
            projectID: ServerConfiguration.demoBundleID, experiment: identifier, variants: Self.variants, customer: id)
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
            } catch let failure as JSONCaller.Failure where failure.code == "offering_exists" {}
        }
        try await server.call(
            "POST", APIPath.experiments,
            [
                "identifier": identifier,
                "variants": Self.variants.map {
                    ["identifier": $0.identifier, "offering_id": "sim-\($0.identifier)", "weight": $0.weight]
                },
            ])
        try await server.call("POST", APIPath.experiment(identifier) + "/start", [:])
    }

    /// The results, as the server answers them.
    func results() async throws -> [String: Any] {
        try await server.call("GET", APIPath.experiment(identifier) + "/results", timeout: 600)
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
