import Crypto
import X509

/// The ES256 signature check shared by the Apple and Xcode verifiers.
enum ES256Signature {
    /// The P-256 key of a DER leaf certificate.
    static func leafKey(_ der: [UInt8]) throws -> P256.Signing.PublicKey {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw VerificationError(.malformedCertificate, "x5c[0] (leaf): \(error)")
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else {
            throw VerificationError(.invalidChain, "x5c[0] (leaf) key is not P-256, so it cannot make ES256 signatures")
        }
        return key
    }

    /// Checks the JWS signature (64 bytes, `r ‖ s`) over `header.payload`.
    static func check(_ jws: CompactJWS, with key: P256.Signing.PublicKey) throws {
        guard jws.signature.count == 64 else {
            throw VerificationError(.malformed, "ES256 signature is \(jws.signature.count) bytes; expected 64")
        }
        let signature: P256.Signing.ECDSASignature
        do { signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature) } catch {
            throw VerificationError(.invalidSignature, "ES256 signature is not a valid r ‖ s pair")
        }
        guard key.isValidSignature(signature, for: SHA256.hash(data: jws.signingInput)) else {
            throw VerificationError(.invalidSignature, "ES256 signature does not match header.payload for the leaf key")
        }
    }
}
