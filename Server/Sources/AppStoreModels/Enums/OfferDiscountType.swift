/// `offerDiscountType` of a signed transaction or renewal info.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum OfferDiscountType: OpenEnum {
    /// A free trial.
    case freeTrial
    /// A discounted price each period.
    case payAsYouGo
    /// One discounted payment up front.
    case payUpFront
    /// A one-time discount.
    case oneTime
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(OfferDiscountType, String)] = [
        (.freeTrial, "FREE_TRIAL"),
        (.payAsYouGo, "PAY_AS_YOU_GO"),
        (.payUpFront, "PAY_UP_FRONT"),
        (.oneTime, "ONE_TIME"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
