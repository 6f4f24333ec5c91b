import Foundation

/// JSON for `storekeeper state` and the HTTP API. Documented keys are always written (`null` when unknown),
/// so clients can rely on their presence. Dates use the encoder's date strategy (ISO 8601 in our output).
extension CustomerState: Encodable {
    enum CodingKeys: String, CodingKey {
        case evaluatedAt, subscriptions, purchases, entitlements, introEligibility
    }

    /// Encodes the whole state.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(evaluatedAt, forKey: .evaluatedAt)
        try c.encode(subscriptions, forKey: .subscriptions)
        try c.encode(purchases, forKey: .purchases)
        try c.encode(entitlements, forKey: .entitlements)
        try c.encode(introEligibility, forKey: .introEligibility)
    }
}

extension SubscriptionState: Encodable {
    enum CodingKeys: String, CodingKey {
        case originalTransactionID, productID, subscriptionGroupID, status, expiresAt, gracePeriodExpiresAt
        case willAutoRenew, autoRenewProductID, expirationReason, offer, ownership, priceIncreaseStatus
        case environment, storefront, price, currency, isUpgraded, revokedAt, revocationReason, revocationType
        case latestTransactionID, explanation
    }

    /// Encodes every documented key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(originalTransactionID, forKey: .originalTransactionID)
        try c.encode(productID, forKey: .productID)
        try c.encode(subscriptionGroupID, forKey: .subscriptionGroupID)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(gracePeriodExpiresAt, forKey: .gracePeriodExpiresAt)
        try c.encode(willAutoRenew, forKey: .willAutoRenew)
        try c.encode(autoRenewProductID, forKey: .autoRenewProductID)
        try c.encode(expirationReason, forKey: .expirationReason)
        try c.encode(offer, forKey: .offer)
        try c.encode(ownership, forKey: .ownership)
        try c.encode(priceIncreaseStatus, forKey: .priceIncreaseStatus)
        try c.encode(environment, forKey: .environment)
        try c.encode(storefront, forKey: .storefront)
        try c.encode(price, forKey: .price)
        try c.encode(currency, forKey: .currency)
        try c.encode(isUpgraded, forKey: .isUpgraded)
        try c.encode(revokedAt, forKey: .revokedAt)
        try c.encode(revocationReason, forKey: .revocationReason)
        try c.encode(revocationType, forKey: .revocationType)
        try c.encode(latestTransactionID, forKey: .latestTransactionID)
        try c.encode(explanation, forKey: .explanation)
    }
}

extension PurchaseState: Encodable {
    enum CodingKeys: String, CodingKey {
        case transactionID, productID, kind, purchaseDate, expiresAt, revokedAt, grantsAccess, explanation
    }

    /// Encodes every documented key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionID, forKey: .transactionID)
        try c.encode(productID, forKey: .productID)
        try c.encode(kind, forKey: .kind)
        try c.encode(purchaseDate, forKey: .purchaseDate)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(revokedAt, forKey: .revokedAt)
        try c.encode(grantsAccess, forKey: .grantsAccess)
        try c.encode(explanation, forKey: .explanation)
    }
}

extension Entitlement: Encodable {
    enum CodingKeys: String, CodingKey { case identifier, productID, expiresAt, grantedBy }

    /// Encodes every documented key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(productID, forKey: .productID)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(grantedBy, forKey: .grantedBy)
    }
}
