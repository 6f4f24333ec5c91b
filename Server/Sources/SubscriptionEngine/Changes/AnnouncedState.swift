public import Foundation

/// What was last announced about a customer: the few facts of each subscription and purchase that
/// ``ChangeDetector`` compares the engine's next answer with. Stored beside the customer, so a change is
/// announced once however many times its evidence arrives, and a change the clock makes (an expiry) is
/// announced when it happens, not only when the next evidence does.
public struct AnnouncedState: Sendable, Hashable, Codable {
    /// Each subscription as announced, by original transaction id.
    public var subscriptions: [String: AnnouncedSubscription]
    /// Purchases that are not auto-renewable subscriptions, as announced, by transaction id.
    public var purchases: [String: AnnouncedPurchase]
    /// Support's grants as announced, by id: whether each was in force; `nil` (not stored) when none.
    public var grants: [String: Bool]?

    /// An announced state (empty: nothing announced yet).
    public init(
        subscriptions: [String: AnnouncedSubscription] = [:], purchases: [String: AnnouncedPurchase] = [:],
        grants: [String: Bool]? = nil
    ) {
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.grants = grants
    }

    /// The engine's answer as it is remembered once announced.
    public init(_ state: CustomerState) {
        self.init()
        for subscription in state.subscriptions {
            subscriptions[subscription.originalTransactionID] = AnnouncedSubscription(subscription)
        }
        for purchase in state.purchases {
            purchases[purchase.transactionID] = AnnouncedPurchase(revoked: purchase.revokedAt != nil)
        }
        if !state.grants.isEmpty {
            grants = Dictionary(state.grants.map { ($0.id, $0.isActive) }, uniquingKeysWith: { $1 })
        }
    }

    /// Both customers' announcements, as when two ids are merged: where both announced the same subscription or
    /// purchase, `self`'s is kept.
    public func merging(_ other: AnnouncedState) -> AnnouncedState {
        AnnouncedState(
            subscriptions: subscriptions.merging(other.subscriptions) { mine, _ in mine },
            purchases: purchases.merging(other.purchases) { mine, _ in mine },
            grants: other.grants.map { (grants ?? [:]).merging($0) { mine, _ in mine } } ?? grants)
    }
}

/// A subscription as last announced.
public struct AnnouncedSubscription: Sendable, Hashable, Codable {
    /// Its status.
    public var status: SubscriptionState.Status
    /// The product of its period.
    public var productID: String
    /// The transaction of its period.
    public var transactionID: String
    /// Whether it was going to renew.
    public var willAutoRenew: Bool?
    /// When its period ended.
    public var expiresAt: Date?
    /// `true` once a rescinded consent withheld its access (`nil` otherwise, so it is not stored).
    public var consentRescinded: Bool?

    /// The announced facts of a subscription's state.
    public init(_ state: SubscriptionState) {
        status = state.status
        productID = state.productID
        transactionID = state.latestTransactionID
        willAutoRenew = state.willAutoRenew
        expiresAt = state.expiresAt
        consentRescinded = state.consentRescindedAt == nil ? nil : true
    }

    enum CodingKeys: String, CodingKey {
        case status = "s"
        case productID = "p"
        case transactionID = "t"
        case willAutoRenew = "r"
        case expiresAt = "e"
        case consentRescinded = "c"
    }
}

/// A purchase (not an auto-renewable subscription) as last announced.
public struct AnnouncedPurchase: Sendable, Hashable, Codable {
    /// Whether it was revoked.
    public var revoked: Bool

    /// An announced purchase.
    public init(revoked: Bool) { self.revoked = revoked }

    enum CodingKeys: String, CodingKey { case revoked = "v" }
}
