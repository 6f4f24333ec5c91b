/// What changed about a customer between two answers of the engine: the types of the events StoreKeeper
/// announces (its webhooks).
public enum ChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A subscription seen for the first time.
    case initialPurchase = "initial_purchase"
    /// A new period of the same product.
    case renewal
    /// A new period of another product (upgrade, downgrade or crossgrade taking effect).
    case productChange = "product_change"
    /// Auto-renew turned off.
    case cancellation
    /// Auto-renew turned back on.
    case uncancellation
    /// Billing failed: the subscription entered the grace period or billing retry.
    case billingIssue = "billing_issue"
    /// Billing recovered after a failure.
    case billingRecovery = "billing_recovery"
    /// The billing grace period ended while Apple still retries.
    case gracePeriodExpired = "grace_period_expired"
    /// The subscription ended.
    case expiration
    /// Refunded or revoked.
    case refund
    /// A refund was reversed.
    case refundReversed = "refund_reversed"
    /// The current period was extended (a renewal-date extension).
    case subscriptionExtended = "subscription_extended"
    /// The subscription moved to this customer from another.
    case transfer
    /// A purchase that is not an auto-renewable subscription.
    case nonRenewingPurchase = "non_renewing_purchase"
    /// A test event sent on request.
    case test
    /// A parent or guardian rescinded consent for a minor's use of the app: the subscription grants no access.
    case consentRescinded = "consent_rescinded"
    /// Apple asked which retention message to show a customer about to cancel, and was answered a promotional
    /// offer (Retention Messaging). Not a change of state: the engine never finds it; the retention room
    /// announces it.
    case retentionOfferShown = "retention_offer_shown"
    /// Support granted an entitlement without a purchase (``EntitlementGrant``).
    case entitlementGranted = "entitlement_granted"
    /// Support revoked a grant before its end.
    case entitlementRevoked = "entitlement_revoked"
}
