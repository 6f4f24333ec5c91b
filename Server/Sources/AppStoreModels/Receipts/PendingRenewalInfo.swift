public import Foundation

/// One item of verifyReceipt's `pending_renewal_info`: what happens at the next renewal.
public struct PendingRenewalInfo: Codable, Sendable, Hashable {
    /// The product that renews next.
    public var autoRenewProductId: String?
    /// Whether the subscription will renew.
    public var autoRenewStatus: AutoRenewStatus?
    /// Why the subscription expired.
    public var expirationIntent: ExpirationIntent?
    /// When the billing grace period ends (in grace while present and in the future).
    public var gracePeriodExpiresDate: Date?
    /// Whether Apple is retrying a failed renewal.
    public var isInBillingRetryPeriod: Bool?
    /// The offer code redeemed.
    public var offerCodeRefName: String?
    /// The original purchase.
    public var originalTransactionId: String?
    /// The product currently subscribed to.
    public var productId: String?
    /// The promotional offer that applies.
    public var promotionalOfferId: String?
    /// Price increase consent (`price_consent_status`).
    public var priceConsentStatus: PriceIncreaseStatus?
    /// Price increase status (`price_increase_status`).
    public var priceIncreaseStatus: PriceIncreaseStatus?

    /// Makes empty renewal info.
    public init() {}

    /// Decodes any of Apple's spellings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleJSONKey.self)
        autoRenewProductId = try c.lenient("auto_renew_product_id")
        autoRenewStatus = try c.lenient("auto_renew_status")
        expirationIntent = try c.lenient("expiration_intent")
        gracePeriodExpiresDate = try c.appleDate("grace_period_expires_date")
        isInBillingRetryPeriod = try c.lenient("is_in_billing_retry_period")
        offerCodeRefName = try c.lenient("offer_code_ref_name")
        originalTransactionId = try c.lenient("original_transaction_id")
        productId = try c.lenient("product_id")
        promotionalOfferId = try c.lenient("promotional_offer_id")
        priceConsentStatus = try c.lenient("price_consent_status")
        priceIncreaseStatus = try c.lenient("price_increase_status")
    }

    /// Encodes verifyReceipt's spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AppleJSONKey.self)
        try c.appleString(autoRenewProductId, "auto_renew_product_id")
        try c.appleString(autoRenewStatus?.rawValue, "auto_renew_status")
        try c.appleString(expirationIntent?.rawValue, "expiration_intent")
        try c.appleDate(gracePeriodExpiresDate, "grace_period_expires_date")
        try c.appleString(isInBillingRetryPeriod.map { $0 ? "1" : "0" }, "is_in_billing_retry_period")
        try c.appleString(offerCodeRefName, "offer_code_ref_name")
        try c.appleString(originalTransactionId, "original_transaction_id")
        try c.appleString(productId, "product_id")
        try c.appleString(promotionalOfferId, "promotional_offer_id")
        try c.appleString(priceConsentStatus?.rawValue, "price_consent_status")
        try c.appleString(priceIncreaseStatus?.rawValue, "price_increase_status")
    }
}
