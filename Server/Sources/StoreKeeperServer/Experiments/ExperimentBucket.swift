import Crypto
import Foundation

/// Which variant of an experiment a customer falls in: the first 8 bytes of a SHA-256 of (project, experiment,
/// customer), modulo 10,000, against the variants' cumulative weights (each percent is 100 of the 10,000). Every
/// replica computes the same; `storekeeper simulate --experiment` computes it too, to know the truth it simulates.
public enum ExperimentBucket {
    /// The variant `customer` falls in.
    /// - Parameters:
    ///   - projectID: The project.
    ///   - experiment: The experiment's identifier.
    ///   - variants: Each variant's identifier and weight, in the experiment's order.
    ///   - customer: The customer's app user id.
    /// - Returns: A variant's identifier (the last one's if the weights fall short of 100).
    public static func variant(
        projectID: String, experiment: String, variants: [(identifier: String, weight: Int)], customer: String
    ) -> String {
        let digest = SHA256.hash(data: Data("\(projectID)\n\(experiment)\n\(customer)".utf8))
        let bucket = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 10_000
        var ceiling: UInt64 = 0
        for variant in variants {
            ceiling += UInt64(max(0, variant.weight)) * 100
            if bucket < ceiling { return variant.identifier }
        }
        return variants.last?.identifier ?? ""
    }
}
