import Crypto
import X509

/// The CMS signature check of an app receipt: RSA PKCS#1 v1.5 with SHA-1 (legacy) or SHA-256 (G5, Xcode),
/// directly over the content or over signed attributes whose `messageDigest` covers it.
enum ReceiptSignature {
    static let sha1 = "1.3.14.3.2.26"
    static let sha256 = "2.16.840.1.101.3.4.2.1"
    static let rsaEncryption = "1.2.840.113549.1.1.1"
    static let sha1WithRSA = "1.2.840.113549.1.1.5"
    static let sha256WithRSA = "1.2.840.113549.1.1.11"

    /// Checks the signature; returns the algorithm's name.
    static func check(_ message: PKCS7SignedData, signer: Certificate) throws -> String {
        let signer = signer
        let info = message.signer
        let algorithm: Certificate.SignatureAlgorithm
        let name: String
        switch (info.digestAlgorithm, info.signatureAlgorithm) {
        case (sha1, rsaEncryption), (sha1, sha1WithRSA):
            (algorithm, name) = (.sha1WithRSAEncryption, "sha1WithRSAEncryption")
        case (sha256, rsaEncryption), (sha256, sha256WithRSA):
            (algorithm, name) = (.sha256WithRSAEncryption, "sha256WithRSAEncryption")
        default:
            throw VerificationError(
                .unsupportedAlgorithm,
                "receipt signature uses digest \(info.digestAlgorithm) with \(info.signatureAlgorithm)")
        }
        let signedBytes: [UInt8]
        if let attributes = info.signedAttributes {
            guard let expected = info.messageDigest else {
                throw VerificationError(.malformed, "receipt signed attributes lack messageDigest")
            }
            let actual: [UInt8] =
                info.digestAlgorithm == sha1
                ? Array(Insecure.SHA1.hash(data: message.content)) : Array(SHA256.hash(data: message.content))
            guard actual == expected else {
                throw VerificationError(.invalidSignature, "receipt content does not match the signed messageDigest")
            }
            signedBytes = attributes
        } else {
            signedBytes = Array(message.content)
        }
        guard signer.publicKey.isValidSignature(info.signature, for: signedBytes, signatureAlgorithm: algorithm) else {
            throw VerificationError(.invalidSignature, "receipt \(name) signature does not match its content")
        }
        return name
    }
}
