public import AppStoreModels
public import Foundation

/// One in-app purchase of an app receipt (attribute 17), decoded from its nested payload.
///
/// Types: 1701 quantity, 1702 product id, 1703 transaction id, 1704 purchase date, 1705 original transaction id,
/// 1706 original purchase date, 1707 product type, 1708 subscription expiration date, 1711 web order line item
/// id, 1712 cancellation date, 1713 is trial period, 1719 is in intro offer period, 1721 promotional offer id.
public struct AppReceiptInAppPurchase: Sendable, Hashable {
    /// Number of items (1701).
    public var quantity: Int64?
    /// The product identifier (1702).
    public var productID: String?
    /// The transaction id (1703).
    public var transactionID: String?
    /// When the App Store charged the account (1704).
    public var purchaseDate: Date?
    /// The original transaction id (1705).
    public var originalTransactionID: String?
    /// When the original transaction was bought (1706).
    public var originalPurchaseDate: Date?
    /// Apple's product type code (1707, undocumented).
    public var productType: Int64?
    /// When the subscription expires (1708).
    public var expiresDate: Date?
    /// The web order line item id (1711).
    public var webOrderLineItemID: Int64?
    /// When Apple support cancelled (refunded) it (1712).
    public var cancellationDate: Date?
    /// Whether the period is a free trial (1713).
    public var isTrialPeriod: Bool?
    /// Whether the period is an introductory offer (1719).
    public var isInIntroOfferPeriod: Bool?
    /// The promotional offer redeemed (1721).
    public var promotionalOfferID: String?
    /// Attributes of types not interpreted above.
    public var otherAttributes: [ReceiptAttribute] = []

    /// Makes an empty purchase.
    public init() {}

    /// The purchase as verifyReceipt spells an `in_app` item.
    public var transactionInfo: InAppTransactionInfo {
        var info = InAppTransactionInfo()
        info.quantity = quantity.flatMap { Int(exactly: $0) }
        info.productId = productID
        info.transactionId = transactionID
        info.originalTransactionId = originalTransactionID
        info.purchaseDate = purchaseDate
        info.originalPurchaseDate = originalPurchaseDate
        info.expiresDate = expiresDate
        info.cancellationDate = cancellationDate
        info.webOrderLineItemId = webOrderLineItemID.map(String.init)
        info.isTrialPeriod = isTrialPeriod ?? (expiresDate == nil ? nil : false)
        info.isInIntroOfferPeriod = isInIntroOfferPeriod ?? (expiresDate == nil ? nil : false)
        info.promotionalOfferId = promotionalOfferID
        return info
    }
}
