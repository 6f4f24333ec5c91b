/// Request a Test Notification response.
public struct SendTestNotificationResponse: Codable, Sendable, Hashable {
    /// Token to look the test notification up.
    @Lenient public var testNotificationToken: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
