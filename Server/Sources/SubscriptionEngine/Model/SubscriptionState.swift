public import AppStoreModels
public import Foundation

/// One auto-renewable subscription (an original transaction id) at one instant, with the facts that decided it.
public struct SubscriptionState: Sendable, Hashable {
    /// Where the subscription stands.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Paid (or in a trial) and current.
        case active
        /// Ended.
        case expired
        /// Billing failed; access continues until the grace period ends.
        case inGracePeriod
        /// Billing failed; Apple is retrying; no access.
        case inBillingRetry
        /// Refunded or revoked; no access.
        case revoked

        /// Whether this status grants access.
        public var grantsAccess: Bool { self == .active || self == .inGracePeriod }
    }

    /// The subscription's id.
    public var originalTransactionID: String
    /// The product of the current (latest) period.
    public var productID: String
    /// The subscription group, when known.
    public var subscriptionGroupID: String?
    /// Where it stands.
    public var status: Status
    /// When the current period ends (the revocation date when revoked).
    public var expiresAt: Date?
    /// When the billing grace period ends, while in grace.
    public var gracePeriodExpiresAt: Date?
    /// Whether it will renew.
    public var willAutoRenew: Bool?
    /// The product it renews to (differs from ``productID`` on a pending downgrade or crossgrade).
    public var autoRenewProductID: String?
    /// Why it ended, when expired.
    public var expirationReason: ExpirationReason?
    /// The current period's offer.
    public var offer: Offer?
    /// Purchased or family shared.
    public var ownership: OwnershipType?
    /// Price increase consent.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The environment.
    public var environment: AppStoreEnvironment?
    /// The storefront, when known.
    public var storefront: String?
    /// The price in milliunits, when known.
    public var price: Int64?
    /// The currency, when known.
    public var currency: String?
    /// Whether the latest period was upgraded away from.
    public var isUpgraded: Bool
    /// When it was revoked.
    public var revokedAt: Date?
    /// Why it was revoked.
    public var revocationReason: RevocationReason?
    /// How it was revoked.
    public var revocationType: RevocationType?
    /// The refunded share of a prorated refund, in thousandths of a percent (50000 is 50 %).
    public var revocationPercentage: Int? = nil
    /// The subscription this one replaced (a switch between a standalone subscription and a bundle).
    public var previousOriginalTransactionID: String? = nil
    /// The subscription that replaced this one, when a later one names it as its previous subscription.
    public var replacedByOriginalTransactionID: String? = nil
    /// Billed up front or monthly within a commitment, when the evidence says.
    public var billingPlan: BillingPlanType? = nil
    /// Where a commitment plan stands, for a subscription billed monthly within a commitment.
    public var commitment: CommitmentState? = nil
    /// When a parent or guardian rescinded consent, when that withholds this subscription's access (its status
    /// stays as Apple reports it; it grants no entitlement).
    public var consentRescindedAt: Date? = nil
    /// The transaction that decided the current period.
    public var latestTransactionID: String
    /// The facts that decided this state, in order, in plain English.
    public var explanation: [String]
    /// When the current period's transaction was bought (a renewal's purchase date is its period's start).
    public var purchasedAt: Date? = nil
}
