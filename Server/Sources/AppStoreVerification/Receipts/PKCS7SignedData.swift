/// The parts of a PKCS#7 / CMS `SignedData` an app receipt verifier needs.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER (signedData), content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE {
///     version INTEGER, digestAlgorithms SET OF AlgorithmIdentifier,
///     encapContentInfo SEQUENCE { eContentType OBJECT IDENTIFIER (data), eContent [0] EXPLICIT OCTET STRING },
///     certificates [0] IMPLICIT SET OF Certificate OPTIONAL, crls [1] IMPLICIT OPTIONAL,
///     signerInfos SET OF SignerInfo }
/// ```
/// BER throughout: Xcode receipts use indefinite lengths and may chunk the content OCTET STRING.
public struct PKCS7SignedData: Sendable {
    /// The signed content (the receipt payload).
    public var content: ArraySlice<UInt8>
    /// The DER certificates carried in the message, in message order.
    public var certificates: [[UInt8]]
    /// The single signer.
    public var signer: PKCS7SignerInfo

    static let signedDataOID = "1.2.840.113549.1.7.2"
    static let dataOID = "1.2.840.113549.1.7.1"

    /// Parses a DER/BER PKCS#7 message.
    /// - Parameter bytes: The decoded receipt bytes.
    /// - Throws: ``VerificationError/Code/malformed`` naming the production that is wrong.
    public init(bytes: [UInt8]) throws {
        let reader = BERReader(bytes: bytes)
        let contentInfo = try reader.root("PKCS#7 ContentInfo")
        let info = try reader.children(of: contentInfo, "ContentInfo")
        guard info.count == 2, try reader.objectIdentifier(info[0], "ContentInfo.contentType") == Self.signedDataOID,
            info[1].isContext(0)
        else { throw VerificationError(.malformed, "ContentInfo is not PKCS#7 signedData") }
        let wrapped = try reader.children(of: info[1], "ContentInfo.content")
        guard wrapped.count == 1, wrapped[0].isUniversal(BERElement.Universal.sequence) else {
            throw VerificationError(.malformed, "SignedData is not a SEQUENCE")
        }
        let fields = try reader.children(of: wrapped[0], "SignedData")
        guard fields.count >= 4 else {
            throw VerificationError(.malformed, "SignedData has \(fields.count) fields; expected at least 4")
        }
        // encapContentInfo
        let encapsulated = try reader.children(of: fields[2], "SignedData.encapContentInfo")
        guard encapsulated.count == 2,
            try reader.objectIdentifier(encapsulated[0], "encapContentInfo.eContentType") == Self.dataOID,
            encapsulated[1].isContext(0)
        else { throw VerificationError(.malformed, "encapContentInfo does not hold PKCS#7 data") }
        let explicitContent = try reader.children(of: encapsulated[1], "encapContentInfo.eContent")
        guard explicitContent.count == 1, explicitContent[0].isUniversal(BERElement.Universal.octetString) else {
            throw VerificationError(.malformed, "eContent is not an OCTET STRING")
        }
        content = try reader.stringBytes(explicitContent[0], "eContent")
        // certificates, crls, signerInfos
        var certificates: [[UInt8]] = []
        var signerInfos: BERElement?
        for field in fields[3...] {
            if field.isContext(0) {
                for certificate in try reader.children(of: field, "SignedData.certificates") {
                    certificates.append(Array(bytes[certificate.encoded]))
                }
            } else if field.isContext(1) {
                continue
            } else if field.isUniversal(BERElement.Universal.set) {
                signerInfos = field
            }
        }
        guard let signerInfos else { throw VerificationError(.malformed, "SignedData has no signerInfos") }
        let signers = try reader.children(of: signerInfos, "SignedData.signerInfos")
        guard signers.count == 1 else {
            throw VerificationError(.malformed, "SignedData has \(signers.count) signers; receipts have exactly 1")
        }
        self.certificates = certificates
        self.signer = try PKCS7SignerInfo(reader: reader, element: signers[0])
    }
}
