public import Foundation

/// One transaction as verifyReceipt spells it: an item of `receipt.in_app` or `latest_receipt_info`, or the
/// flat `receipt` / `latest_receipt_info` object of iOS 6-style responses.
///
/// Every date is read from its `_ms` key first and from its text key otherwise; booleans and numbers accept
/// strings. Encoding writes verifyReceipt's own spelling (strings, three keys per date), so a locally decoded
/// receipt can stand in for Apple's response.
public struct InAppTransactionInfo: Codable, Sendable, Hashable {
    /// Number of items bought.
    public var quantity: Int?
    /// The product identifier.
    public var productId: String?
    /// The transaction's id.
    public var transactionId: String?
    /// The original purchase's id.
    public var originalTransactionId: String?
    /// Id of a subscription purchase event across devices.
    public var webOrderLineItemId: String?
    /// When the App Store charged the account.
    public var purchaseDate: Date?
    /// When the original transaction was purchased.
    public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    /// When Apple customer support cancelled (refunded) the transaction.
    public var cancellationDate: Date?
    /// Why it was cancelled.
    public var cancellationReason: RevocationReason?
    /// Whether this period is a free trial.
    public var isTrialPeriod: Bool?
    /// Whether this period is an introductory price period.
    public var isInIntroOfferPeriod: Bool?
    /// Whether the customer upgraded away from this transaction.
    public var isUpgraded: Bool?
    /// The promotional offer redeemed.
    public var promotionalOfferId: String?
    /// The offer code redeemed.
    public var offerCodeRefName: String?
    /// The subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The UUID the app associated with the purchase.
    public var appAccountToken: String?
    /// Purchased or family shared.
    public var inAppOwnershipType: OwnershipType?
    /// iOS 6-style: the bundle identifier (`bid`).
    public var bid: String?
    /// iOS 6-style: the app version (`bvrs`).
    public var bvrs: String?
    /// iOS 6-style: the product's Apple id (`item_id`).
    public var itemId: String?
    /// iOS 6-style: the app's Apple id (`app_item_id`).
    public var appItemId: String?
    /// iOS 6-style: the device identifier (`unique_identifier`).
    public var uniqueIdentifier: String?
    /// iOS 6-style: the vendor identifier (`unique_vendor_identifier`).
    public var uniqueVendorIdentifier: String?
    /// iOS 6-style: the version's external identifier.
    public var versionExternalIdentifier: String?

    /// Makes an empty transaction.
    public init() {}

    /// Decodes any of Apple's spellings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleJSONKey.self)
        quantity = try c.lenient("quantity")
        productId = try c.lenient("product_id")
        transactionId = try c.lenient("transaction_id")
        originalTransactionId = try c.lenient("original_transaction_id")
        webOrderLineItemId = try c.lenient("web_order_line_item_id")
        purchaseDate = try c.appleDate("purchase_date")
        originalPurchaseDate = try c.appleDate("original_purchase_date")
        expiresDate = try c.appleDate("expires_date")
        if expiresDate == nil { expiresDate = try c.lenient("expires_date_formatted") }
        cancellationDate = try c.appleDate("cancellation_date")
        cancellationReason = try c.lenient("cancellation_reason")
        isTrialPeriod = try c.lenient("is_trial_period")
        isInIntroOfferPeriod = try c.lenient("is_in_intro_offer_period")
        isUpgraded = try c.lenient("is_upgraded")
        promotionalOfferId = try c.lenient("promotional_offer_id")
        offerCodeRefName = try c.lenient("offer_code_ref_name")
        subscriptionGroupIdentifier = try c.lenient("subscription_group_identifier")
        appAccountToken = try c.lenient("app_account_token")
        inAppOwnershipType = try c.lenient("in_app_ownership_type")
        bid = try c.lenient("bid")
        bvrs = try c.lenient("bvrs")
        itemId = try c.lenient("item_id")
        appItemId = try c.lenient("app_item_id")
        uniqueIdentifier = try c.lenient("unique_identifier")
        uniqueVendorIdentifier = try c.lenient("unique_vendor_identifier")
        versionExternalIdentifier = try c.lenient("version_external_identifier")
    }

    /// Encodes verifyReceipt's spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AppleJSONKey.self)
        try c.appleString(quantity, "quantity")
        try c.appleString(productId, "product_id")
        try c.appleString(transactionId, "transaction_id")
        try c.appleString(originalTransactionId, "original_transaction_id")
        try c.appleDate(purchaseDate, "purchase_date")
        try c.appleDate(originalPurchaseDate, "original_purchase_date")
        try c.appleDate(expiresDate, "expires_date")
        try c.appleDate(cancellationDate, "cancellation_date")
        try c.appleString(cancellationReason?.rawValue, "cancellation_reason")
        try c.appleString(webOrderLineItemId, "web_order_line_item_id")
        try c.appleBool(isTrialPeriod, "is_trial_period")
        try c.appleBool(isInIntroOfferPeriod, "is_in_intro_offer_period")
        try c.appleBool(isUpgraded, "is_upgraded")
        try c.appleString(promotionalOfferId, "promotional_offer_id")
        try c.appleString(offerCodeRefName, "offer_code_ref_name")
        try c.appleString(subscriptionGroupIdentifier, "subscription_group_identifier")
        try c.appleString(appAccountToken, "app_account_token")
        try c.appleString(inAppOwnershipType?.rawValue, "in_app_ownership_type")
        try c.appleString(bid, "bid")
        try c.appleString(bvrs, "bvrs")
        try c.appleString(itemId, "item_id")
        try c.appleString(appItemId, "app_item_id")
        try c.appleString(uniqueIdentifier, "unique_identifier")
        try c.appleString(uniqueVendorIdentifier, "unique_vendor_identifier")
        try c.appleString(versionExternalIdentifier, "version_external_identifier")
    }
}
