public import Foundation

/// A notification the simulated App Store sent (or will send), with its delivery attempts.
public struct SimulatedNotification: Sendable, Hashable, Codable {
    /// One delivery attempt.
    public struct Attempt: Sendable, Hashable, Codable {
        /// When.
        public var date: Date
        /// `SUCCESS` or Apple's failure reason (`UNSUCCESSFUL_HTTP_RESPONSE_CODE`, `NO_RESPONSE`, …).
        public var result: String
    }

    /// The notification's UUID.
    public var notificationUUID: String
    /// The app.
    public var bundleID: String
    /// V2 type.
    public var notificationType: String
    /// V2 subtype.
    public var subtype: String?
    /// The V2 body's `signedPayload`.
    public var signedPayload: String
    /// The V1 body (JSON), when this event has a V1 counterpart.
    public var v1Body: Data?
    /// The V1 `notification_type`.
    public var v1Type: String?
    /// When it was signed.
    public var signedDate: Date
    /// The transaction it is about.
    public var transactionID: String?
    /// The subscription or purchase it is about (its original transaction id): a deliverer keeps each one's
    /// notifications in order and may send different ones side by side.
    public var originalTransactionID: String?
    /// Delivery attempts so far.
    public var attempts: [Attempt] = []
    /// When the next attempt is due, or `nil` when delivered or given up.
    public var nextAttemptAt: Date?
    /// Whether a test notification (Request a Test Notification).
    public var testNotificationToken: String?
}
