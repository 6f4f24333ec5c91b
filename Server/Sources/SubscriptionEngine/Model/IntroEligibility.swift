/// Whether a customer may still get a product's introductory offer.
public enum IntroEligibility: String, Sendable, Hashable, Codable {
    /// No introductory offer consumed in the product's group.
    case eligible
    /// An introductory offer (free trial or intro price) was consumed in the product's group.
    case ineligible
    /// The product's subscription group is not configured.
    case unknown
}
