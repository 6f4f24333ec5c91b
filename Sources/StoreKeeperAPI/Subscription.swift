public import Foundation
public import StoreKeeperWire

/// One auto-renewable subscription (all its renewals, by original transaction id) at the server's clock.
public struct Subscription: Codable, Sendable, Hashable {
    /// The subscription's original transaction id.
    public var originalTransactionID: String
    /// The product of the current (or last) period.
    public var productID: String
    /// The subscription group.
    public var subscriptionGroupID: String?
    /// `active`, `expired`, `inGracePeriod`, `inBillingRetry` or `revoked`.
    public var status: String
    /// When the current period ends (or the last one ended).
    public var expiresAt: Date?
    /// When the billing grace period ends, while in it.
    public var gracePeriodExpiresAt: Date?
    /// Whether it renews at the end of the period (`nil` when no renewal info is known).
    public var willAutoRenew: Bool?
    /// The product it renews to (a pending downgrade or crossgrade).
    public var autoRenewProductID: String?
    /// Why it stopped: `voluntary`, `billingError`, `priceIncreaseDeclined`, `productUnavailable` or `other`.
    public var expirationReason: String?
    /// The offer applied to the current period.
    public var offer: SubscriptionOffer?
    /// `PURCHASED` or `FAMILY_SHARED` (Apple's values, unknown ones as sent).
    public var ownership: String?
    /// Apple's price increase status (0 not yet responded, 1 consented).
    public var priceIncreaseStatus: Int?
    /// `Production`, `Sandbox` or `Xcode`.
    public var environment: String?
    /// The storefront (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// The price in milliunits of `currency`.
    public var price: Int64?
    /// ISO 4217 currency code.
    public var currency: String?
    /// Whether the customer upgraded away from it.
    public var isUpgraded: Bool
    /// When it was refunded or revoked.
    public var revokedAt: Date?
    /// Apple's revocation reason (0 other, 1 an issue with the app).
    public var revocationReason: Int?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE` (Apple's values, unknown ones as sent).
    public var revocationType: String?
    /// The refunded share of a prorated refund, in thousandths of a percent (Apple's `revocationPercentage`:
    /// 50000 is 50 %).
    public var revocationPercentage: Int?
    /// The subscription this one replaced (the customer switched between a standalone subscription and a
    /// subscription bundle).
    public var previousOriginalTransactionID: String?
    /// The subscription that replaced this one, when a later one names it as its previous subscription.
    public var replacedByOriginalTransactionID: String?
    /// `BILLED_UPFRONT` or `MONTHLY` (a monthly subscription with a 12-month commitment), when the evidence says.
    public var billingPlan: String?
    /// Where a commitment plan stands (`billing_plan` `MONTHLY`).
    public var commitment: SubscriptionCommitment?
    /// When a parent or guardian rescinded consent for the minor who bought it (Apple's `RESCIND_CONSENT`): from
    /// then on it grants no entitlement, whatever its status.
    public var consentRescindedAt: Date?
    /// The latest transaction id.
    public var latestTransactionID: String
    /// Why it is in this state, in sentences that quote the rules applied.
    public var explanation: [String]

    /// Makes a subscription with the required fields; set the rest as needed.
    public init(originalTransactionID: String, productID: String, status: String, latestTransactionID: String) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.status = status
        self.isUpgraded = false
        self.latestTransactionID = latestTransactionID
        self.explanation = []
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionID = "original_transaction_id", productID = "product_id"
        case subscriptionGroupID = "subscription_group_id", status, expiresAt = "expires_at"
        case gracePeriodExpiresAt = "grace_period_expires_at", willAutoRenew = "will_auto_renew"
        case autoRenewProductID = "auto_renew_product_id", expirationReason = "expiration_reason", offer, ownership
        case priceIncreaseStatus = "price_increase_status", environment, storefront, price, currency
        case isUpgraded = "is_upgraded", revokedAt = "revoked_at", revocationReason = "revocation_reason"
        case revocationType = "revocation_type", revocationPercentage = "revocation_percentage"
        case previousOriginalTransactionID = "previous_original_transaction_id"
        case replacedByOriginalTransactionID = "replaced_by_original_transaction_id"
        case billingPlan = "billing_plan", commitment, consentRescindedAt = "consent_rescinded_at"
        case latestTransactionID = "latest_transaction_id", explanation
    }
}

extension Subscription: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .originalTransactionID: writer.value(originalTransactionID)
        case .productID: writer.value(productID)
        case .subscriptionGroupID: writer.value(subscriptionGroupID)
        case .status: writer.value(status)
        case .expiresAt: writer.value(expiresAt)
        case .gracePeriodExpiresAt: writer.value(gracePeriodExpiresAt)
        case .willAutoRenew: writer.value(willAutoRenew)
        case .autoRenewProductID: writer.value(autoRenewProductID)
        case .expirationReason: writer.value(expirationReason)
        case .offer: writer.value(offer)
        case .ownership: writer.value(ownership)
        case .priceIncreaseStatus: writer.value(priceIncreaseStatus)
        case .environment: writer.value(environment)
        case .storefront: writer.value(storefront)
        case .price: writer.value(price)
        case .currency: writer.value(currency)
        case .isUpgraded: writer.value(isUpgraded)
        case .revokedAt: writer.value(revokedAt)
        case .revocationReason: writer.value(revocationReason)
        case .revocationType: writer.value(revocationType)
        case .revocationPercentage: writer.value(revocationPercentage)
        case .previousOriginalTransactionID: writer.value(previousOriginalTransactionID)
        case .replacedByOriginalTransactionID: writer.value(replacedByOriginalTransactionID)
        case .billingPlan: writer.value(billingPlan)
        case .commitment: writer.value(commitment)
        case .consentRescindedAt: writer.value(consentRescindedAt)
        case .latestTransactionID: writer.value(latestTransactionID)
        case .explanation: writer.value(explanation)
        }
    }
}

extension Subscription: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .originalTransactionID: .required(.text)
        case .productID: .required(.text)
        case .subscriptionGroupID: .required(.text.nullable)
        case .status: .required(.oneOf(["active", "expired", "inGracePeriod", "inBillingRetry", "revoked"]))
        case .expiresAt: .required(.dateTime.nullable)
        case .gracePeriodExpiresAt: .required(.dateTime.nullable)
        case .willAutoRenew: .required(.boolean.nullable)
        case .autoRenewProductID: .required(.text.nullable)
        case .expirationReason: .required(.text.nullable)
        case .offer: .required(.type(SubscriptionOffer.self).nullable)
        case .ownership: .required(.text.nullable)
        case .priceIncreaseStatus: .required(.integer.nullable)
        case .environment: .required(.text.nullable)
        case .storefront: .required(.text.nullable)
        case .price:
            .required(
                .integer.nullable.described(
                    "The latest transaction's price in milliunits of `currency`, as Apple reports it: 9990 is 9.99."))
        case .currency: .required(.text.nullable)
        case .isUpgraded: .required(.boolean)
        case .revokedAt: .required(.dateTime.nullable)
        case .revocationReason: .required(.integer.nullable)
        case .revocationType: .required(.text.nullable)
        case .revocationPercentage:
            .required(
                .integer.nullable.described(
                    "Refunded share of a prorated refund in thousandths of a percent (50000 = 50 %)."))
        case .previousOriginalTransactionID: .required(.text.nullable)
        case .replacedByOriginalTransactionID: .required(.text.nullable)
        case .billingPlan:
            .required(
                .text.nullable.described(
                    "BILLED_UPFRONT or MONTHLY (monthly billing within a 12-month commitment); Apple's values, unknown ones as sent."
                ))
        case .commitment: .required(.type(SubscriptionCommitment.self).nullable)
        case .consentRescindedAt:
            .required(
                .dateTime.nullable.described(
                    "When a parent or guardian rescinded consent (RESCIND_CONSENT): from then on the subscription grants no entitlement."
                ))
        case .latestTransactionID: .required(.text)
        case .explanation: .required(.array(of: .text))
        }
    }
}
