public import Foundation

/// A parent or guardian rescinded consent for a minor's use of the app (Apple's `RESCIND_CONSENT`, which names the
/// customer's app transaction), applied to one subscription or purchase of that app transaction.
///
/// Rule ``SubscriptionRule/consentRescindedWithholdsAccess``: what was bought before the rescission grants no
/// access from it on; a purchase after it (consent given again) does.
public struct ConsentRescission: Sendable, Hashable, Codable {
    /// The subscription or purchase it applies to (its original transaction id).
    public var originalTransactionID: String
    /// The app transaction Apple named.
    public var appTransactionID: String
    /// When Apple signed the notification.
    public var rescindedAt: Date

    /// Makes a rescission.
    /// - Parameters:
    ///   - originalTransactionID: The subscription or purchase.
    ///   - appTransactionID: The app transaction.
    ///   - rescindedAt: When.
    public init(originalTransactionID: String, appTransactionID: String, rescindedAt: Date) {
        self.originalTransactionID = originalTransactionID
        self.appTransactionID = appTransactionID
        self.rescindedAt = rescindedAt
    }
}
