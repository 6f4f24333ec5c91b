/// `autoRenewStatus` / `auto_renew_status`.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum AutoRenewStatus: OpenEnum {
    /// Will not renew.
    case off
    /// Will renew.
    case on
    /// A value Apple added after this code was written.
    case unknown(Int)

    /// Every known case with its raw value.
    public static let known: [(AutoRenewStatus, Int)] = [
        (.off, 0),
        (.on, 1),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: Int? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
