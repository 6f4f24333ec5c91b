/// `GET /v1/subscribers/{id}/eligibility`: intro-offer eligibility by product id.
public struct EligibilityResponse: Codable, Sendable, Hashable {
    /// `eligible`, `ineligible` or `unknown` (a product in no configured subscription group) by product id.
    public var eligibility: [String: String]

    /// Makes a response.
    public init(eligibility: [String: String]) { self.eligibility = eligibility }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case eligibility }
}

extension EligibilityResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .eligibility: .optional(.map(of: .oneOf(["eligible", "ineligible", "unknown"])))
        }
    }
}
