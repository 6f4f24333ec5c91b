/// `offerType`: which kind of offer applies.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum OfferType: OpenEnum {
    /// An introductory offer.
    case introductory
    /// A promotional offer.
    case promotional
    /// An offer code.
    case offerCode
    /// A win-back offer.
    case winBack
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(OfferType, Int)] = [
        (.introductory, 1),
        (.promotional, 2),
        (.offerCode, 3),
        (.winBack, 4),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
