public import Foundation

/// The payload of a StoreKit 2 signed transaction (`JWSTransaction`), as Apple names its fields.
///
/// Dates are decoded from milliseconds since 1970, including Xcode's fractional milliseconds.
/// `price` is in milliunits of `currency` (230000 JPY milliunits = ¥230).
public struct JWSTransactionDecodedPayload: Codable, Sendable, Hashable {
    /// The transaction's unique id.
    public var transactionId: String
    /// The id of the original purchase of this subscription or product.
    public var originalTransactionId: String
    /// The product identifier.
    public var productId: String
    /// The app's bundle identifier.
    @Lenient public var bundleId: String?
    /// Id of a subscription purchase event across devices, including renewals.
    @Lenient public var webOrderLineItemId: String?
    /// The subscription group the product belongs to.
    @Lenient public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the account (or the renewal happened).
    @Lenient public var purchaseDate: Date?
    /// When the original transaction was purchased.
    @Lenient public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    @Lenient public var expiresDate: Date?
    /// How many items were bought.
    @Lenient public var quantity: Int?
    /// The kind of product.
    @Lenient public var type: ProductType?
    /// The UUID the app associated with the purchase.
    @Lenient public var appAccountToken: String?
    /// Purchased or family shared.
    @Lenient public var inAppOwnershipType: OwnershipType?
    /// When Apple signed this payload.
    @Lenient public var signedDate: Date?
    /// Why the transaction was refunded or revoked.
    @Lenient public var revocationReason: RevocationReason?
    /// When the transaction was refunded or revoked.
    @Lenient public var revocationDate: Date?
    /// Full refund, prorated refund or family revocation.
    @Lenient public var revocationType: RevocationType?
    /// Refunded share in thousandths of a percent for prorated refunds.
    @Lenient public var revocationPercentage: Int?
    /// Whether the customer upgraded to another subscription.
    @Lenient public var isUpgraded: Bool?
    /// The offer that applies to this transaction.
    @Lenient public var offerType: OfferType?
    /// The offer's identifier (promotional offer id or offer code reference name).
    @Lenient public var offerIdentifier: String?
    /// The offer's duration, ISO 8601 (e.g. `P1M`).
    @Lenient public var offerPeriod: String?
    /// How the offer is paid.
    @Lenient public var offerDiscountType: OfferDiscountType?
    /// The environment that signed the transaction; absent in some 2021 tokens.
    @Lenient public var environment: AppStoreEnvironment?
    /// Three-letter storefront code (ISO 3166-1 alpha-3).
    @Lenient public var storefront: String?
    /// Apple's storefront identifier.
    @Lenient public var storefrontId: String?
    /// Purchase or renewal.
    @Lenient public var transactionReason: TransactionReason?
    /// ISO 4217 currency of `price`.
    @Lenient public var currency: String?
    /// Price in milliunits of `currency`.
    @Lenient public var price: Int64?
    /// The app transaction this purchase belongs to.
    @Lenient public var appTransactionId: String?
    /// How the subscription is billed: up front, or monthly within a commitment.
    @Lenient public var billingPlanType: BillingPlanType?
    /// Where this billing period stands within its commitment (commitment plans only).
    public var commitmentInfo: TransactionCommitmentInfo?
    /// The original transaction id of the subscription this one replaced when the customer switched between a
    /// standalone subscription and a subscription bundle (either way).
    @Lenient public var previousOriginalTransactionId: String?

    /// Makes a payload with the required fields; set the rest as needed.
    /// - Parameters:
    ///   - transactionId: The transaction's id.
    ///   - originalTransactionId: The original purchase's id.
    ///   - productId: The product identifier.
    public init(transactionId: String, originalTransactionId: String, productId: String) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
    }
}
