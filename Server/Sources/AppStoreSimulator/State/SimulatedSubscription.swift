public import Foundation

/// The simulated App Store's view of one subscription (an original transaction id).
public struct SimulatedSubscription: Sendable, Hashable, Codable {
    /// Where it stands, as Get All Subscription Statuses reports it (1–5).
    public enum Status: Int, Sendable, Hashable, Codable {
        /// Active.
        case active = 1
        /// Expired.
        case expired = 2
        /// In billing retry.
        case billingRetry = 3
        /// In the billing grace period.
        case billingGracePeriod = 4
        /// Revoked.
        case revoked = 5
    }

    /// The original transaction id.
    public var originalTransactionID: String
    /// The app.
    public var bundleID: String
    /// The customer.
    public var customerID: String
    /// The subscription group.
    public var subscriptionGroupID: String
    /// The product of the current period.
    public var productID: String
    /// The product of the next period.
    public var autoRenewProductID: String
    /// Whether it will renew.
    public var autoRenewEnabled: Bool
    /// Where it stands.
    public var status: Status
    /// The latest transaction.
    public var latestTransactionID: String
    /// When the current period ends.
    public var periodEnd: Date
    /// Renewals so far (the sandbox stops at a cap).
    public var renewalCount: Int
    /// Start of the current run of continuous subscription.
    public var recentStart: Date
    /// Whether the next renewal will fail to bill.
    public var nextRenewalFails: Bool
    /// When the grace period ends, while in billing trouble.
    public var graceEndsAt: Date?
    /// Whether GRACE_PERIOD_EXPIRED was sent.
    public var graceExpiredNotified: Bool
    /// When billing retry gives up.
    public var retryEndsAt: Date?
    /// Why it expired (1–5).
    public var expirationIntent: Int?
    /// Price increase: `nil` none, 0 awaiting consent, 1 accepted.
    public var priceIncreaseStatus: Int?
    /// The price after an accepted increase.
    public var pendingPrice: Int64?
    /// Intro offer periods left after the current one.
    public var introPeriodsLeft: Int
    /// Purchased or family shared.
    public var ownership: String
    /// The app account token.
    public var appAccountToken: String?
    /// The current billing period within the commitment, for a commitment plan (monthly billing, 12 periods).
    public var commitmentPeriod: Int? = nil
    /// When the current commitment ends (commitment plans).
    public var commitmentEndsAt: Date? = nil
    /// Whether a new commitment starts when this one ends (commitment plans; the customer turns it off to cancel).
    public var commitmentAutoRenewEnabled: Bool? = nil
    /// The subscription this one replaced, carried by each of its transactions.
    public var previousOriginalTransactionID: String? = nil
    /// A promotional offer the customer accepted for their next renewal (a retention offer), by identifier.
    public var pendingPromotionalOfferID: String? = nil
    /// When Extend a Subscription Renewal Date extended it (Apple allows two in 365 days).
    public var extensionDates: [Date]? = nil
}
