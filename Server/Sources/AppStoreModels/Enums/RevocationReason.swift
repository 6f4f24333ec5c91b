/// `revocationReason` / `cancellation_reason`.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum RevocationReason: OpenEnum {
    /// Another reason (e.g. accidental purchase).
    case other
    /// The customer reported a problem with the app.
    case appIssue
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(RevocationReason, Int)] = [
        (.other, 0),
        (.appIssue, 1),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
