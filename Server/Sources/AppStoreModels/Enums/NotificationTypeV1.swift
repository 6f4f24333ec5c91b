/// `notification_type` of an App Store Server Notification V1.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum NotificationTypeV1: OpenEnum {
    /// First purchase.
    case initialBuy
    /// Apple customer support cancelled (refunded) the subscription.
    case cancel
    /// Renewed after a lapse (obsolete).
    case renewal
    /// Recovered after a billing failure.
    case didRecover
    /// The customer renewed interactively.
    case interactiveRenewal
    /// A plan change.
    case didChangeRenewalPref
    /// Auto-renew was turned on or off.
    case didChangeRenewalStatus
    /// A billing failure.
    case didFailToRenew
    /// Renewed automatically.
    case didRenew
    /// A price increase awaits consent.
    case priceIncreaseConsent
    /// A refund was granted.
    case refund
    /// Family-sharing access was revoked.
    case revoke
    /// Apple asks for consumption information.
    case consumptionRequest
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(NotificationTypeV1, String)] = [
        (.initialBuy, "INITIAL_BUY"),
        (.cancel, "CANCEL"),
        (.renewal, "RENEWAL"),
        (.didRecover, "DID_RECOVER"),
        (.interactiveRenewal, "INTERACTIVE_RENEWAL"),
        (.didChangeRenewalPref, "DID_CHANGE_RENEWAL_PREF"),
        (.didChangeRenewalStatus, "DID_CHANGE_RENEWAL_STATUS"),
        (.didFailToRenew, "DID_FAIL_TO_RENEW"),
        (.didRenew, "DID_RENEW"),
        (.priceIncreaseConsent, "PRICE_INCREASE_CONSENT"),
        (.refund, "REFUND"),
        (.revoke, "REVOKE"),
        (.consumptionRequest, "CONSUMPTION_REQUEST"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
