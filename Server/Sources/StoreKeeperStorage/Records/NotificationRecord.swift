public import Foundation

/// One App Store notification as stored: what it was and what became of it.
public struct NotificationRecord: Sendable, Hashable {
    /// The notification's UUID (V2) or digest (V1).
    public var notificationID: String
    /// The app.
    public var bundleID: String
    /// `TYPE/SUBTYPE` (V2) or `V1/TYPE`.
    public var type: String
    /// `applied`, `duplicate`, `pending` or `recorded`.
    public var status: String
    /// When it was received.
    public var receivedAt: Date
    /// The subscriptions it is about.
    public var originalTransactionIDs: [String]

    /// Makes a record.
    public init(
        notificationID: String, bundleID: String, type: String, status: String, receivedAt: Date,
        originalTransactionIDs: [String]
    ) {
        self.notificationID = notificationID
        self.bundleID = bundleID
        self.type = type
        self.status = status
        self.receivedAt = receivedAt
        self.originalTransactionIDs = originalTransactionIDs
    }
}
