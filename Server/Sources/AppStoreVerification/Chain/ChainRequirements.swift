public import SwiftASN1

/// What a certificate chain must look like beyond RFC 5280, for one kind of Apple evidence.
public struct ChainRequirements: Sendable, Hashable {
    /// An extension the leaf must carry, if any.
    public var leafExtension: ASN1ObjectIdentifier?
    /// An extension the intermediate must carry, if any.
    public var intermediateExtension: ASN1ObjectIdentifier?
    /// Whether the leaf's key usage must allow digital signatures (Apple's signing leaves all say so).
    public var leafSignsDigitally: Bool

    /// Makes requirements.
    /// - Parameters:
    ///   - leafExtension: Required leaf extension.
    ///   - intermediateExtension: Required intermediate extension.
    ///   - leafSignsDigitally: Whether the leaf must carry key usage `digitalSignature`.
    public init(
        leafExtension: ASN1ObjectIdentifier? = nil, intermediateExtension: ASN1ObjectIdentifier? = nil,
        leafSignsDigitally: Bool = false
    ) {
        self.leafExtension = leafExtension
        self.intermediateExtension = intermediateExtension
        self.leafSignsDigitally = leafSignsDigitally
    }

    /// Apple's marker on a receipt- or data-signing leaf ("Mac App Store and iTunes Store Receipt Signing",
    /// "Prod ECC Mac App Store and iTunes Store Receipt Signing"): 1.2.840.113635.100.6.11.1.
    static let appleSigningLeaf: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// Apple's marker on the Worldwide Developer Relations intermediate: 1.2.840.113635.100.6.2.1.
    static let appleWWDRIntermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// App Store signed data: the WWDR intermediate marker 1.2.840.113635.100.6.2.1 and the App Store
    /// receipt-signing leaf marker 1.2.840.113635.100.6.11.1.
    public static let appStoreSignedData = ChainRequirements(
        leafExtension: appleSigningLeaf, intermediateExtension: appleWWDRIntermediate, leafSignsDigitally: true)

    /// App receipts: the same markers and key usage. Every real receipt in `Tests/Fixtures` carries them, from the
    /// SHA-1 WWDR chain of 2017 to the G5 chain of 2024 (the receipt-signing leaf: 6.11.1 and key usage
    /// `digitalSignature`; the WWDR intermediate: 6.2.1). A chain of Xcode's single StoreKit certificate has no
    /// intermediate and is checked only against its pinned self.
    public static let appReceipt = ChainRequirements(
        leafExtension: appleSigningLeaf, intermediateExtension: appleWWDRIntermediate, leafSignsDigitally: true)
}
