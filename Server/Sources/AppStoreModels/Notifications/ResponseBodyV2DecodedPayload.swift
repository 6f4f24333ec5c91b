public import Foundation

/// The decoded payload of an App Store Server Notification V2.
public struct ResponseBodyV2DecodedPayload: Codable, Sendable, Hashable {
    /// What happened.
    public var notificationType: NotificationTypeV2
    /// Detail of what happened, when the type has subtypes.
    @Lenient public var subtype: NotificationSubtype?
    /// Unique id of this notification; retries of the same notification share it.
    public var notificationUUID: String
    /// The notification format version (`"2.0"`).
    @Lenient public var version: String?
    /// When Apple signed the notification.
    @Lenient public var signedDate: Date?
    /// App and transaction data (most types).
    public var data: NotificationData?
    /// Mass renewal-extension summary (`RENEWAL_EXTENSION` / `SUMMARY`).
    public var summary: NotificationSummary?
    /// External purchase token (`EXTERNAL_PURCHASE_TOKEN`).
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and the customer's app transaction (`RESCIND_CONSENT`: a parent withdrew consent for a minor).
    public var appData: NotificationAppData?

    /// Makes a payload.
    /// - Parameters:
    ///   - notificationType: What happened.
    ///   - notificationUUID: The notification's unique id.
    public init(notificationType: NotificationTypeV2, notificationUUID: String) {
        self.notificationType = notificationType
        self.notificationUUID = notificationUUID
    }
}
