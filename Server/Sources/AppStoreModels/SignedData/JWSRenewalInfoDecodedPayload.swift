public import Foundation

/// The payload of StoreKit 2 signed renewal info (`JWSRenewalInfo`).
public struct JWSRenewalInfoDecodedPayload: Codable, Sendable, Hashable {
    /// The original purchase this renewal info describes.
    public var originalTransactionId: String
    /// The product currently subscribed to.
    @Lenient public var productId: String?
    /// The product that renews next (differs on a pending downgrade or crossgrade).
    @Lenient public var autoRenewProductId: String?
    /// Whether the subscription will renew.
    @Lenient public var autoRenewStatus: AutoRenewStatus?
    /// Why the subscription expired.
    @Lenient public var expirationIntent: ExpirationIntent?
    /// Whether Apple is retrying a failed renewal; a JSON boolean, `"true"` in older data.
    @Lenient public var isInBillingRetryPeriod: Bool?
    /// When the billing grace period ends.
    @Lenient public var gracePeriodExpiresDate: Date?
    /// Price increase consent.
    @Lenient public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The offer that applies at the next renewal.
    @Lenient public var offerType: OfferType?
    /// That offer's identifier.
    @Lenient public var offerIdentifier: String?
    /// That offer's duration, ISO 8601.
    @Lenient public var offerPeriod: String?
    /// How that offer is paid.
    @Lenient public var offerDiscountType: OfferDiscountType?
    /// When Apple signed this payload.
    @Lenient public var signedDate: Date?
    /// The environment; absent in some 2021 tokens.
    @Lenient public var environment: AppStoreEnvironment?
    /// Start of the most recent run of continuous subscription.
    @Lenient public var recentSubscriptionStartDate: Date?
    /// When the next renewal happens.
    @Lenient public var renewalDate: Date?
    /// ISO 4217 currency of `renewalPrice`.
    @Lenient public var currency: String?
    /// Next renewal price in milliunits.
    @Lenient public var renewalPrice: Int64?
    /// Win-back offers the customer is eligible for.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app associated with the purchase.
    @Lenient public var appAccountToken: String?
    /// The app transaction id.
    @Lenient public var appTransactionId: String?
    /// How the next billing period is billed.
    @Lenient public var renewalBillingPlanType: BillingPlanType?
    /// What happens when a commitment plan's commitment ends.
    public var commitmentInfo: RenewalCommitmentInfo?

    /// Makes renewal info for an original transaction.
    /// - Parameter originalTransactionId: The original purchase's id.
    public init(originalTransactionId: String) {
        self.originalTransactionId = originalTransactionId
    }
}
