/// The `type` of a signed transaction.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum ProductType: OpenEnum {
    /// An auto-renewable subscription.
    case autoRenewable
    /// A non-consumable.
    case nonConsumable
    /// A consumable.
    case consumable
    /// A non-renewing subscription.
    case nonRenewing
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(ProductType, String)] = [
        (.autoRenewable, "Auto-Renewable Subscription"),
        (.nonConsumable, "Non-Consumable"),
        (.consumable, "Consumable"),
        (.nonRenewing, "Non-Renewing Subscription"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
