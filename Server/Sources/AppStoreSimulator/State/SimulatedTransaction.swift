public import Foundation

/// One transaction the simulated App Store made: a purchase or a renewal.
public struct SimulatedTransaction: Sendable, Hashable, Codable {
    /// The transaction id.
    public var transactionID: String
    /// The original transaction id (the subscription, or the purchase itself).
    public var originalTransactionID: String
    /// The web order line item id.
    public var webOrderLineItemID: String
    /// The order id (Look Up Order ID).
    public var orderID: String
    /// The app.
    public var bundleID: String
    /// The customer (an App Store account).
    public var customerID: String
    /// The product.
    public var productID: String
    /// Apple's `type` string.
    public var type: String
    /// The subscription group.
    public var subscriptionGroupID: String?
    /// When it was bought or renewed.
    public var purchaseDate: Date
    /// When the original purchase happened.
    public var originalPurchaseDate: Date
    /// When the period ends.
    public var expiresDate: Date?
    /// Price in milliunits.
    public var price: Int64
    /// ISO 4217 currency.
    public var currency: String
    /// Storefront (alpha-3).
    public var storefront: String
    /// Offer type (1 intro, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int?
    /// Offer identifier.
    public var offerIdentifier: String?
    /// Offer discount type.
    public var offerDiscountType: String?
    /// Offer period.
    public var offerPeriod: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownership: String
    /// When it was refunded or revoked.
    public var revocationDate: Date?
    /// 0 other, 1 app issue.
    public var revocationReason: Int?
    /// `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`.
    public var revocationType: String?
    /// Refunded share in thousandths of a percent.
    public var revocationPercentage: Int?
    /// Whether the customer upgraded away from it.
    public var isUpgraded: Bool
    /// `PURCHASE` or `RENEWAL`.
    public var reason: String
    /// The app account token.
    public var appAccountToken: String?
    /// `BILLED_UPFRONT` or `MONTHLY`, for a product that offers a commitment plan.
    public var billingPlanType: String? = nil
    /// Which billing period of its commitment this transaction pays for (commitment plans).
    public var commitmentPeriod: Int? = nil
    /// When the commitment ends (commitment plans).
    public var commitmentExpiresDate: Date? = nil
    /// The whole commitment's price in milliunits (commitment plans).
    public var commitmentPrice: Int64? = nil
    /// The subscription this one replaced (a switch between a standalone subscription and a bundle).
    public var previousOriginalTransactionID: String? = nil
}
