/// The body of `POST /v1/extensions`: extend every active subscriber of a product (Apple's mass extension).
public struct MassExtensionPost: Codable, Sendable, Hashable {
    /// The auto-renewable product whose active subscribers Apple extends.
    public var productID: String?
    /// Days added to each renewal date, 1–90 (Apple's limit).
    public var days: Int?
    /// `undeclared`, `customer_satisfaction`, `other` or `service_issue` (Apple's `extendReasonCode` 0–3).
    public var reason: String?
    /// Only subscribers of these storefronts (ISO 3166-1 alpha-3 codes, `USA`); absent: every storefront.
    public var storefronts: [String]?

    /// Makes a request.
    public init(productID: String? = nil, days: Int? = nil, reason: String? = nil, storefronts: [String]? = nil) {
        self.productID = productID
        self.days = days
        self.reason = reason
        self.storefronts = storefronts
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case productID = "product_id", days, reason, storefronts
    }
}

extension MassExtensionPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true, description: "product_id, days and reason are required")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .productID: .required(.text.length(0...256))
        case .days: .required(.integer(1, 90))
        case .reason: .required(.oneOf(["undeclared", "customer_satisfaction", "other", "service_issue"]))
        case .storefronts: .optional(.array(of: .text.pattern(#"^[A-Z]{3}$"#)).count(0...200))
        }
    }
}
