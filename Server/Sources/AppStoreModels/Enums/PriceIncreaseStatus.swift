/// `priceIncreaseStatus` / `price_consent_status`.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum PriceIncreaseStatus: OpenEnum {
    /// The customer has not responded.
    case notResponded
    /// The customer consented, or was notified of an increase that needs no consent.
    case consented
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(PriceIncreaseStatus, Int)] = [
        (.notResponded, 0),
        (.consented, 1),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
