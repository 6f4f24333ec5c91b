/// One CMS `SignerInfo`.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///     version INTEGER, sid IssuerAndSerialNumber,
///     digestAlgorithm AlgorithmIdentifier, signedAttrs [0] IMPLICIT SET OF Attribute OPTIONAL,
///     signatureAlgorithm AlgorithmIdentifier, signature OCTET STRING, unsignedAttrs [1] IMPLICIT OPTIONAL }
/// IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }
/// ```
public struct PKCS7SignerInfo: Sendable {
    /// The DER of the signer certificate's issuer name.
    public var issuer: [UInt8]
    /// The signer certificate's serial number bytes (two's complement, as encoded).
    public var serialNumber: [UInt8]
    /// The digest algorithm's OID.
    public var digestAlgorithm: String
    /// The signed attributes re-tagged as the DER `SET OF` that was signed, when present.
    public var signedAttributes: [UInt8]?
    /// The `messageDigest` signed attribute, when signed attributes are present.
    public var messageDigest: [UInt8]?
    /// The signature algorithm's OID.
    public var signatureAlgorithm: String
    /// The signature bytes.
    public var signature: [UInt8]

    static let messageDigestOID = "1.2.840.113549.1.9.4"

    init(reader: BERReader, element: BERElement) throws {
        let fields = try reader.children(of: element, "SignerInfo")
        guard fields.count >= 5 else {
            throw VerificationError(.malformed, "SignerInfo has \(fields.count) fields; expected at least 5")
        }
        let sid = try reader.children(of: fields[1], "SignerInfo.sid")
        guard sid.count == 2, sid[0].isUniversal(BERElement.Universal.sequence),
            sid[1].isUniversal(BERElement.Universal.integer)
        else { throw VerificationError(.malformed, "SignerInfo.sid is not IssuerAndSerialNumber") }
        issuer = Array(reader.bytes[sid[0].encoded])
        serialNumber = Array(reader.bytes[sid[1].contents])
        digestAlgorithm = try Self.algorithm(reader, fields[2], "SignerInfo.digestAlgorithm")
        var index = 3
        if fields[index].isContext(0) {
            var der = Array(reader.bytes[fields[index].encoded])
            der[0] = 0x31  // signed as an explicit SET OF (RFC 5652 §5.4)
            signedAttributes = der
            for attribute in try reader.children(of: fields[index], "SignerInfo.signedAttrs") {
                let parts = try reader.children(of: attribute, "signed attribute")
                guard parts.count == 2 else {
                    throw VerificationError(.malformed, "signed attribute is not (type, values)")
                }
                if try reader.objectIdentifier(parts[0], "signed attribute type") == Self.messageDigestOID {
                    let values = try reader.children(of: parts[1], "messageDigest values")
                    guard values.count == 1, values[0].isUniversal(BERElement.Universal.octetString) else {
                        throw VerificationError(.malformed, "messageDigest is not one OCTET STRING")
                    }
                    messageDigest = Array(try reader.stringBytes(values[0], "messageDigest"))
                }
            }
            index += 1
        }
        guard index + 1 < fields.count else {
            throw VerificationError(.malformed, "SignerInfo ends before its signature")
        }
        signatureAlgorithm = try Self.algorithm(reader, fields[index], "SignerInfo.signatureAlgorithm")
        guard fields[index + 1].isUniversal(BERElement.Universal.octetString) else {
            throw VerificationError(.malformed, "SignerInfo.signature is not an OCTET STRING")
        }
        signature = Array(try reader.stringBytes(fields[index + 1], "SignerInfo.signature"))
    }

    static func algorithm(_ reader: BERReader, _ element: BERElement, _ what: String) throws -> String {
        let parts = try reader.children(of: element, what)
        guard let first = parts.first else { throw VerificationError(.malformed, "\(what) is empty") }
        return try reader.objectIdentifier(first, what)
    }
}
