public import AppStoreModels

/// An app receipt whose signature and chain were verified, decoded.
public struct VerifiedReceipt: Sendable {
    /// The decoded payload.
    public var receipt: AppReceipt
    /// The validated signing chain.
    public var chain: VerifiedChain
    /// The signature algorithm used (`sha1WithRSAEncryption`, `sha256WithRSAEncryption`).
    public var signatureAlgorithm: String
    /// Whether it chains to Xcode's StoreKit test certificate rather than to Apple.
    public var isXcodeReceipt: Bool

    /// The receipt in verifyReceipt's `receipt` form.
    public var receiptInfo: ReceiptInfo { receipt.receiptInfo }
}
