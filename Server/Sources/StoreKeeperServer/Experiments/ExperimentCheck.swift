import Foundation
import StoreKeeperAPI

/// The one statement of what an experiment may hold: a name, 2–4 variants with distinct names showing offerings
/// of the project, weights of 1–99 summing to 100, and an audience as targeting conditions. A broken rule is
/// refused with `invalid_experiment`, naming the field and the value.
enum ExperimentCheck {
    /// The most experiments a project may have.
    static let maximumExperiments = 50
    /// How many variants an experiment has.
    static let variantCounts = 2...4

    /// `post` checked against the project's offerings.
    static func checked(_ post: ExperimentPost, offerings: Set<String>) throws -> Experiment {
        guard OfferingRules.isName(post.identifier, extra: "") else {
            throw invalid(
                "identifier \"\(post.identifier.prefix(100))\" must be 1–100 characters from A–Z a–z 0–9 . _ -")
        }
        guard variantCounts.contains(post.variants.count) else {
            throw invalid("variants has \(post.variants.count) entries; an experiment has 2–4")
        }
        var seen: Set<String> = []
        for (index, variant) in post.variants.enumerated() {
            let name = "variants[\(index)]"
            guard OfferingRules.isName(variant.identifier, extra: ""), seen.insert(variant.identifier).inserted else {
                throw invalid(
                    "\(name).identifier \"\(variant.identifier.prefix(100))\" must be a distinct name (A–Z a–z 0–9 . _ -)"
                )
            }
            guard offerings.contains(variant.offeringID) else {
                throw invalid(
                    "\(name).offering_id \"\(variant.offeringID.prefix(100))\" is not an offering of this project")
            }
            guard (1...99).contains(variant.weight) else {
                throw invalid("\(name).weight is \(variant.weight); a weight is 1–99")
            }
        }
        let total = post.variants.reduce(0) { $0 + $1.weight }
        guard total == 100 else { throw invalid("the variants' weights sum to \(total); they must sum to 100") }
        if let audience = post.audience {
            do {
                try TargetingCheck.check(audience, "audience")
            } catch let error as ServiceError {
                throw invalid(error.message)
            }
        }
        return Experiment(identifier: post.identifier, variants: post.variants, audience: post.audience)
    }

    static func invalid(_ message: String) -> ServiceError { ServiceError.invalid(.invalidExperiment, message) }
}
