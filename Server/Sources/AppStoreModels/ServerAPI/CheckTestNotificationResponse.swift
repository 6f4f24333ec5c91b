/// Get Test Notification Status response.
public struct CheckTestNotificationResponse: Codable, Sendable, Hashable {
    /// The test notification (JWS).
    @Lenient public var signedPayload: String?
    /// Delivery attempts.
    public var sendAttempts: [SendAttemptItem]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
