/// `notificationType` of an App Store Server Notification V2.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum NotificationTypeV2: OpenEnum {
    /// A new or returning subscriber.
    case subscribed
    /// The subscription renewed.
    case didRenew
    /// A plan change (upgrade now, downgrade at renewal).
    case didChangeRenewalPref
    /// Auto-renew was turned on or off.
    case didChangeRenewalStatus
    /// An offer code or promotional offer was redeemed.
    case offerRedeemed
    /// A billing failure.
    case didFailToRenew
    /// The billing grace period ended.
    case gracePeriodExpired
    /// The subscription ended.
    case expired
    /// A price increase consent flow.
    case priceIncrease
    /// A refund was granted.
    case refund
    /// A refund request was declined.
    case refundDeclined
    /// A refund was reversed; access is restored.
    case refundReversed
    /// Apple asks for consumption information.
    case consumptionRequest
    /// Family-sharing access was revoked.
    case revoke
    /// A renewal date was extended.
    case renewalExtended
    /// A mass renewal-date extension.
    case renewalExtension
    /// A test notification.
    case test
    /// An external purchase token.
    case externalPurchaseToken
    /// A one-time charge (Advanced Commerce).
    case oneTimeCharge
    /// Consent was rescinded.
    case rescindConsent
    /// Metadata changed.
    case metadataUpdate
    /// A migration.
    case migration
    /// A price change.
    case priceChange
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(NotificationTypeV2, String)] = [
        (.subscribed, "SUBSCRIBED"),
        (.didRenew, "DID_RENEW"),
        (.didChangeRenewalPref, "DID_CHANGE_RENEWAL_PREF"),
        (.didChangeRenewalStatus, "DID_CHANGE_RENEWAL_STATUS"),
        (.offerRedeemed, "OFFER_REDEEMED"),
        (.didFailToRenew, "DID_FAIL_TO_RENEW"),
        (.gracePeriodExpired, "GRACE_PERIOD_EXPIRED"),
        (.expired, "EXPIRED"),
        (.priceIncrease, "PRICE_INCREASE"),
        (.refund, "REFUND"),
        (.refundDeclined, "REFUND_DECLINED"),
        (.refundReversed, "REFUND_REVERSED"),
        (.consumptionRequest, "CONSUMPTION_REQUEST"),
        (.revoke, "REVOKE"),
        (.renewalExtended, "RENEWAL_EXTENDED"),
        (.renewalExtension, "RENEWAL_EXTENSION"),
        (.test, "TEST"),
        (.externalPurchaseToken, "EXTERNAL_PURCHASE_TOKEN"),
        (.oneTimeCharge, "ONE_TIME_CHARGE"),
        (.rescindConsent, "RESCIND_CONSENT"),
        (.metadataUpdate, "METADATA_UPDATE"),
        (.migration, "MIGRATION"),
        (.priceChange, "PRICE_CHANGE"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
