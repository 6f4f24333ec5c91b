/// `expirationIntent` / `expiration_intent`: why a subscription expired.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum ExpirationIntent: OpenEnum {
    /// The customer turned auto-renew off.
    case customerCancelled
    /// A billing error.
    case billingError
    /// The customer did not consent to a price increase.
    case priceIncreaseDeclined
    /// The product was not available at renewal.
    case productUnavailable
    /// Another reason.
    case other
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(ExpirationIntent, Int)] = [
        (.customerCancelled, 1),
        (.billingError, 2),
        (.priceIncreaseDeclined, 3),
        (.productUnavailable, 4),
        (.other, 5),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
