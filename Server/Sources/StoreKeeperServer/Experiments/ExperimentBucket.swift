import Crypto
import Foundation

/// Which variant of an experiment a customer falls in: the first 8 bytes of an HMAC-SHA256, keyed with the
/// project's experiment key (``ExperimentSecrets``), of (experiment, customer), modulo 10,000, against the
/// variants' cumulative weights (each percent is 100 of the 10,000). Every replica computes the same; without the
/// key nobody can tell, or choose, the variant an id falls in.
enum ExperimentBucket {
    /// The variant `customer` falls in.
    /// - Parameters:
    ///   - key: The project's experiment key.
    ///   - experiment: The experiment's identifier.
    ///   - variants: Each variant's identifier and weight, in the experiment's order.
    ///   - customer: The customer's app user id.
    /// - Returns: A variant's identifier (the last one's if the weights fall short of 100).
    static func variant(
        key: SymmetricKey, experiment: String, variants: [(identifier: String, weight: Int)], customer: String
    ) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(experiment)\n\(customer)".utf8), using: key)
        let bucket = Data(code).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 10_000
        var ceiling: UInt64 = 0
        for variant in variants {
            ceiling += UInt64(max(0, variant.weight)) * 100
            if bucket < ceiling { return variant.identifier }
        }
        return variants.last?.identifier ?? ""
    }
}
