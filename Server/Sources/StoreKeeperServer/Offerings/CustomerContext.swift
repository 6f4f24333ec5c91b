import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// What targeting knows about the customer asking for offerings: what the request says (platform, app version,
/// storefront, language) and, read only when a rule asks, where the customer stands on the server.
struct CustomerContext: Sendable {
    /// The app's platform, as sent.
    var platform: String?
    /// The app's version, when sent as one.
    var appVersion: AppVersion?
    /// The storefront, as sent.
    var storefront: String?
    /// The customer's language (the first tag of `Accept-Language`).
    var locale: String?
    /// The server's clock.
    var now: Date
    /// The customer's document on the server (read at most once per request, when a rule needs it).
    var subscriber: @Sendable () async throws -> SubscriberResponse
    /// The customer's attributes with who set each (read at most once per request, when a rule needs them).
    var attributes: @Sendable () async throws -> HeldAttributes

    /// Where the customer stands: `never_subscribed`, `active` or `expired`.
    static func entitlementState(_ subscriber: Subscriber) -> String {
        if !subscriber.entitlements.isEmpty { return "active" }
        return subscriber.subscriptions.isEmpty ? "never_subscribed" : "expired"
    }

    /// Whole days since the server first saw the customer (0 for one never seen).
    static func firstSeenDays(_ subscriber: Subscriber, now: Date) -> Int {
        subscriber.firstSeen.map { max(0, Int(now.timeIntervalSince($0) / 86_400)) } ?? 0
    }

    /// The storefront of the customer's latest subscription.
    static func latestStorefront(_ subscriber: Subscriber) -> String? {
        subscriber.subscriptions.max { ($0.expiresAt ?? .distantPast) < ($1.expiresAt ?? .distantPast) }?.storefront
    }
}
