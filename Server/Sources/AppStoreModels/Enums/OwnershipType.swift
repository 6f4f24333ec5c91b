/// `inAppOwnershipType` / `in_app_ownership_type`.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum OwnershipType: OpenEnum {
    /// The customer bought it.
    case purchased
    /// A family member shares it.
    case familyShared
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(OwnershipType, String)] = [
        (.purchased, "PURCHASED"),
        (.familyShared, "FAMILY_SHARED"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
