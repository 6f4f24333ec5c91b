/// The body of `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/extend`: how many days
/// to move the renewal date, and why (Apple's reason codes, by name).
public struct ExtensionPost: Codable, Sendable, Hashable {
    /// Days to add to the renewal date, 1–90 (Apple's limit).
    public var days: Int?
    /// `undeclared`, `customer_satisfaction`, `other` or `service_issue` (Apple's `extendReasonCode` 0–3).
    public var reason: String?

    /// Makes a request.
    public init(days: Int? = nil, reason: String? = nil) {
        self.days = days
        self.reason = reason
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case days, reason
    }
}

extension ExtensionPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true, description: "Both fields are required")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .days: .required(.integer(1, 90))
        case .reason: .required(.oneOf(["undeclared", "customer_satisfaction", "other", "service_issue"]))
        }
    }
}
