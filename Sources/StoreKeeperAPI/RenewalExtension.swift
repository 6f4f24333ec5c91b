/// A subscription's renewal date moved by Apple at support's request: what was asked, and where the renewal date
/// stands now (the customer's document moved with it in the same call).
public struct RenewalExtension: Codable, Sendable, Hashable {
    /// The subscription.
    public var originalTransactionID: String
    /// The days asked for.
    public var days: Int
    /// Why, by name (`service_issue`…).
    public var reason: String
    /// The request's identifier as Apple was given it (a UUID), for Apple's support and the audit log.
    public var requestIdentifier: String
    /// The renewal date after the extension (RFC 3339), as Apple answered it.
    public var renewsAt: String?
    /// Extensions of this subscription in the 365 days up to now, this one included (Apple allows 2).
    public var extensionsInYear: Int

    /// Makes an answer.
    public init(
        originalTransactionID: String, days: Int, reason: String, requestIdentifier: String, renewsAt: String?,
        extensionsInYear: Int
    ) {
        self.originalTransactionID = originalTransactionID
        self.days = days
        self.reason = reason
        self.requestIdentifier = requestIdentifier
        self.renewsAt = renewsAt
        self.extensionsInYear = extensionsInYear
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionID = "original_transaction_id", days, reason
        case requestIdentifier = "request_identifier", renewsAt = "renews_at"
        case extensionsInYear = "extensions_in_year"
    }
}

extension RenewalExtension: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(description: "A renewal date Apple moved at support's request")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .originalTransactionID: .required(.text)
        case .days: .required(.integer)
        case .reason: .required(.text)
        case .requestIdentifier: .required(.text)
        case .renewsAt: .required(.dateTime.nullable)
        case .extensionsInYear:
            .required(
                .integer.described(
                    "Extensions of this subscription in the 365 days up to now, this one included (Apple allows 2)"))
        }
    }
}
