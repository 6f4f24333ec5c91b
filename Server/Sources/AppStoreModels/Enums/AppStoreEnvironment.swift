/// The App Store environment that produced a piece of evidence. V1 notifications spell production `PROD`; it decodes as ``production``.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum AppStoreEnvironment: OpenEnum {
    /// Apple's sandbox.
    case sandbox
    /// The live App Store.
    case production
    /// StoreKit testing in Xcode.
    case xcode
    /// Local StoreKit testing.
    case localTesting
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(AppStoreEnvironment, String)] = [
        (.sandbox, "Sandbox"),
        (.production, "Production"),
        (.xcode, "Xcode"),
        (.localTesting, "LocalTesting"),
        (.production, "PROD"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
