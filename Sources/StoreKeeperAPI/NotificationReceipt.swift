/// The answer to an App Store Server Notification, sent only after its commit.
public struct NotificationReceipt: Codable, Sendable, Hashable {
    /// `applied`, `duplicate` (seen before; changed nothing), `pending` (about a subscription nobody owns yet:
    /// kept, applied when it arrives) or `recorded` (about no subscription: TEST, summaries).
    public var status: String

    /// Makes an answer.
    public init(status: String) { self.status = status }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case status }
}

extension NotificationReceipt: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .status: .required(.oneOf(["applied", "duplicate", "pending", "recorded"]))
        }
    }
}
