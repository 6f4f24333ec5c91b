/// The `receipt_type` of an app receipt (attribute 0).
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum ReceiptType: OpenEnum {
    /// Bought from the App Store.
    case production
    /// A sandbox receipt.
    case productionSandbox
    /// Volume purchase.
    case productionVPP
    /// Volume purchase in sandbox.
    case productionVPPSandbox
    /// StoreKit testing in Xcode.
    case xcode
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(ReceiptType, String)] = [
        (.production, "Production"),
        (.productionSandbox, "ProductionSandbox"),
        (.productionVPP, "ProductionVPP"),
        (.productionVPPSandbox, "ProductionVPPSandbox"),
        (.xcode, "Xcode"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
