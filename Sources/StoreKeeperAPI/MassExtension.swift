/// A request to extend every active subscriber of a product, and where Apple stands with it.
public struct MassExtension: Codable, Sendable, Hashable {
    /// Its id, the `requestIdentifier` Apple was given: `GET /v1/extensions/{id}` asks Apple again.
    public var id: String
    /// The product.
    public var productID: String
    /// Days added to each renewal date.
    public var days: Int
    /// Why, by name.
    public var reason: String
    /// The storefronts it is limited to (empty: all).
    public var storefronts: [String]
    /// When support asked (RFC 3339).
    public var requestedAt: String
    /// Whether Apple has finished (it works through a large request over hours).
    public var complete: Bool
    /// When Apple finished (RFC 3339), once complete.
    public var completedAt: String?
    /// Subscriptions Apple extended, once complete.
    public var succeededCount: Int?
    /// Active subscriptions Apple could not extend (in billing retry or grace), once complete.
    public var failedCount: Int?

    /// Makes an answer.
    public init(
        id: String, productID: String, days: Int, reason: String, storefronts: [String], requestedAt: String,
        complete: Bool, completedAt: String? = nil, succeededCount: Int? = nil, failedCount: Int? = nil
    ) {
        self.id = id
        self.productID = productID
        self.days = days
        self.reason = reason
        self.storefronts = storefronts
        self.requestedAt = requestedAt
        self.complete = complete
        self.completedAt = completedAt
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, productID = "product_id", days, reason, storefronts, requestedAt = "requested_at", complete
        case completedAt = "completed_at", succeededCount = "succeeded_count", failedCount = "failed_count"
    }
}

extension MassExtension: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(description: "A mass extension and where Apple stands with it")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.text)
        case .productID: .required(.text)
        case .days: .required(.integer)
        case .reason: .required(.text)
        case .storefronts: .required(.array(of: .text))
        case .requestedAt: .required(.dateTime)
        case .complete: .required(.boolean)
        case .completedAt: .required(.dateTime.nullable)
        case .succeededCount: .required(.integer.nullable)
        case .failedCount: .required(.integer.nullable)
        }
    }
}
