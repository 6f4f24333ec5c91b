/// `subtype` of an App Store Server Notification V2.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum NotificationSubtype: OpenEnum {
    /// First purchase.
    case initialBuy
    /// Returning subscriber.
    case resubscribe
    /// Downgrade at next renewal.
    case downgrade
    /// Upgrade, effective now.
    case upgrade
    /// Auto-renew turned on.
    case autoRenewEnabled
    /// Auto-renew turned off.
    case autoRenewDisabled
    /// Expired after the customer turned auto-renew off.
    case voluntary
    /// Expired after billing retry ended.
    case billingRetry
    /// Expired because a price increase was not accepted.
    case priceIncrease
    /// Billing failed; access continues in grace.
    case gracePeriod
    /// A price increase awaits consent.
    case pending
    /// A price increase was accepted.
    case accepted
    /// Renewed after a billing failure.
    case billingRecovery
    /// Expired because the product was removed.
    case productNotForSale
    /// A mass extension finished.
    case summary
    /// An extension failed for one subscription.
    case failure
    /// An external purchase token was not reported.
    case unreported
    /// A reminder for an active external token.
    case activeTokenReminder
    /// An external purchase token was created.
    case created
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(NotificationSubtype, String)] = [
        (.initialBuy, "INITIAL_BUY"),
        (.resubscribe, "RESUBSCRIBE"),
        (.downgrade, "DOWNGRADE"),
        (.upgrade, "UPGRADE"),
        (.autoRenewEnabled, "AUTO_RENEW_ENABLED"),
        (.autoRenewDisabled, "AUTO_RENEW_DISABLED"),
        (.voluntary, "VOLUNTARY"),
        (.billingRetry, "BILLING_RETRY"),
        (.priceIncrease, "PRICE_INCREASE"),
        (.gracePeriod, "GRACE_PERIOD"),
        (.pending, "PENDING"),
        (.accepted, "ACCEPTED"),
        (.billingRecovery, "BILLING_RECOVERY"),
        (.productNotForSale, "PRODUCT_NOT_FOR_SALE"),
        (.summary, "SUMMARY"),
        (.failure, "FAILURE"),
        (.unreported, "UNREPORTED"),
        (.activeTokenReminder, "ACTIVE_TOKEN_REMINDER"),
        (.created, "CREATED"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
