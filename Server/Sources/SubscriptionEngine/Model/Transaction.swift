public import AppStoreModels
public import Foundation

/// One purchase or renewal, normalised from any source: receipt `in_app` / `latest_receipt_info` items,
/// StoreKit 2 signed transactions, and the transactions inside V1 and V2 notifications.
///
/// Each value is one *observation*; observations of the same `transactionID` merge (see ``merged(_:)``).
public struct Transaction: Sendable, Hashable, Codable {
    /// The transaction's id (the merge key).
    public var transactionID: String
    /// The original purchase's id: the subscription this transaction belongs to.
    public var originalTransactionID: String
    /// The product.
    public var productID: String
    /// What the product is, when the evidence says or configuration decides.
    public var kind: ProductKind?
    /// The subscription group, when the evidence says.
    public var subscriptionGroupID: String?
    /// When it was bought or renewed.
    public var purchaseDate: Date?
    /// When the original purchase happened.
    public var originalPurchaseDate: Date?
    /// When the period ends.
    public var expiresAt: Date?
    /// When Apple refunded or revoked it (receipt `cancellation_date`, JWS `revocationDate`).
    public var revokedAt: Date?
    /// Why it was revoked.
    public var revocationReason: RevocationReason?
    /// Full refund, prorated refund or family revocation.
    public var revocationType: RevocationType?
    /// The refunded share of a prorated refund, in thousandths of a percent (Apple's `revocationPercentage`:
    /// 50000 is 50 %).
    public var revocationPercentage: Int?
    /// Whether the customer upgraded away from it.
    public var isUpgraded: Bool?
    /// The offer that applied.
    public var offer: Offer?
    /// Purchased or family shared.
    public var ownership: OwnershipType?
    /// Sandbox, Production…
    public var environment: AppStoreEnvironment?
    /// The storefront (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// Price in milliunits of ``currency``.
    public var price: Int64?
    /// ISO 4217 currency.
    public var currency: String?
    /// The web order line item id.
    public var webOrderLineItemID: String?
    /// The app account token.
    public var appAccountToken: String?
    /// Quantity.
    public var quantity: Int?
    /// The app transaction (the app's download by this Apple Account) the purchase belongs to.
    public var appTransactionID: String?
    /// The subscription this one replaced when the customer switched between a standalone subscription and a
    /// subscription bundle (Apple's `previousOriginalTransactionId`).
    public var previousOriginalTransactionID: String?
    /// Billed up front or monthly within a commitment.
    public var billingPlan: BillingPlanType?
    /// Which billing period of its commitment this transaction pays for (commitment plans).
    public var commitmentPeriod: Int?
    /// How many billing periods the commitment has.
    public var commitmentPeriods: Int?
    /// When the commitment ends.
    public var commitmentEndsAt: Date?
    /// The whole commitment's price, in milliunits of ``currency``.
    public var commitmentPrice: Int64?
    /// When this observation was made (JWS `signedDate`, verifyReceipt `request_date`, receipt creation date).
    public var observedAt: Date?
    /// Where this observation came from.
    public var source: EvidenceSource

    /// Makes an observation.
    /// - Parameters:
    ///   - transactionID: The transaction id.
    ///   - originalTransactionID: The original transaction id.
    ///   - productID: The product.
    ///   - source: Where it came from.
    public init(transactionID: String, originalTransactionID: String, productID: String, source: EvidenceSource) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.source = source
    }

    /// When access from this transaction ends: the revocation date when it is earlier than the expiry
    /// (rule ``SubscriptionRule/revocationOverridesExpiry``), else the expiry.
    public var accessEndsAt: Date? {
        switch (expiresAt, revokedAt) {
        case (let expiry?, let revocation?): min(expiry, revocation)
        case (nil, let revocation?): revocation
        case (let expiry, nil): expiry
        }
    }

    /// Merges observations of one transaction into one record.
    ///
    /// Observations are ordered by (``observedAt``, ``source``, content) — an order that depends only on the
    /// set, never on arrival — and folded so later ones fill and override fields. Revocation fields are taken
    /// from the newest observation as a whole (absent there means "not revoked", which is how
    /// REFUND_REVERSED restores access).
    /// - Parameter observations: Observations of one transaction id (at least one).
    /// - Returns: The merged record.
    public static func merged(_ observations: [Transaction]) -> Transaction {
        let ordered = observations.sorted(by: ObservationOrder.precedes)
        var result = ordered[0]
        for next in ordered.dropFirst() {
            result.productID = next.productID
            result.originalTransactionID = next.originalTransactionID
            result.kind = next.kind ?? result.kind
            result.subscriptionGroupID = next.subscriptionGroupID ?? result.subscriptionGroupID
            result.purchaseDate = next.purchaseDate ?? result.purchaseDate
            result.originalPurchaseDate = next.originalPurchaseDate ?? result.originalPurchaseDate
            result.expiresAt = next.expiresAt ?? result.expiresAt
            result.revokedAt = next.revokedAt
            result.revocationReason = next.revocationReason
            result.revocationType = next.revocationType
            result.revocationPercentage = next.revocationPercentage
            result.isUpgraded = next.isUpgraded ?? result.isUpgraded
            result.offer = next.offer ?? result.offer
            result.ownership = next.ownership ?? result.ownership
            result.environment = next.environment ?? result.environment
            result.storefront = next.storefront ?? result.storefront
            result.price = next.price ?? result.price
            result.currency = next.currency ?? result.currency
            result.webOrderLineItemID = next.webOrderLineItemID ?? result.webOrderLineItemID
            result.appAccountToken = next.appAccountToken ?? result.appAccountToken
            result.quantity = next.quantity ?? result.quantity
            result.appTransactionID = next.appTransactionID ?? result.appTransactionID
            result.previousOriginalTransactionID =
                next.previousOriginalTransactionID ?? result.previousOriginalTransactionID
            result.billingPlan = next.billingPlan ?? result.billingPlan
            result.commitmentPeriod = next.commitmentPeriod ?? result.commitmentPeriod
            result.commitmentPeriods = next.commitmentPeriods ?? result.commitmentPeriods
            result.commitmentEndsAt = next.commitmentEndsAt ?? result.commitmentEndsAt
            result.commitmentPrice = next.commitmentPrice ?? result.commitmentPrice
            result.observedAt = next.observedAt ?? result.observedAt
            result.source = next.source
        }
        return result
    }
}
