/// `revocationType` of a signed transaction.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum RevocationType: OpenEnum {
    /// A full refund.
    case refundFull
    /// A prorated refund.
    case refundProrated
    /// Family sharing revoked.
    case familyRevoke
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(RevocationType, String)] = [
        (.refundFull, "REFUND_FULL"),
        (.refundProrated, "REFUND_PRORATED"),
        (.familyRevoke, "FAMILY_REVOKE"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
