/// One notification in ``NotificationHistoryResponse``.
public struct NotificationHistoryResponseItem: Codable, Sendable, Hashable {
    /// The notification (JWS).
    @Lenient public var signedPayload: String?
    /// Delivery attempts.
    public var sendAttempts: [SendAttemptItem]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
