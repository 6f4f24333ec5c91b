public import SwiftASN1

/// What a certificate chain must look like beyond RFC 5280, for one kind of Apple evidence.
public struct ChainRequirements: Sendable, Hashable {
    /// An extension the leaf must carry, if any.
    public var leafExtension: ASN1ObjectIdentifier?
    /// An extension the intermediate must carry, if any.
    public var intermediateExtension: ASN1ObjectIdentifier?

    /// Makes requirements.
    /// - Parameters:
    ///   - leafExtension: Required leaf extension.
    ///   - intermediateExtension: Required intermediate extension.
    public init(leafExtension: ASN1ObjectIdentifier? = nil, intermediateExtension: ASN1ObjectIdentifier? = nil) {
        self.leafExtension = leafExtension
        self.intermediateExtension = intermediateExtension
    }

    /// App Store signed data: the WWDR intermediate marker 1.2.840.113635.100.6.2.1 and the App Store
    /// receipt-signing leaf marker 1.2.840.113635.100.6.11.1.
    public static let appStoreSignedData = ChainRequirements(
        leafExtension: [1, 2, 840, 113635, 100, 6, 11, 1],
        intermediateExtension: [1, 2, 840, 113635, 100, 6, 2, 1]
    )

    /// App receipts: RFC 5280 rules only (legacy receipt chains predate the markers).
    public static let appReceipt = ChainRequirements()
}
