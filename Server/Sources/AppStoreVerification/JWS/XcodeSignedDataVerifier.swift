import AppStoreModels
import Crypto
import Foundation
import StoreKeeperWire
import X509

/// Verifies data signed by StoreKit testing in Xcode: one self-signed certificate in `x5c`, no Apple chain.
///
/// Such data proves nothing about a real purchase, so this verifier exists apart from
/// ``AppStoreSignedDataVerifier`` and is used only when configuration asks for it — never because a payload
/// says `"environment": "Xcode"`. It checks that the token is ES256, that the single certificate signed
/// itself, and that the token's signature was made with its key. Anyone can make such a certificate, so what it
/// verifies must say `"environment": "Xcode"` whatever the expectations given: a self-signed token claiming
/// `Production` or `Sandbox` is refused (`unexpectedEnvironment`).
public struct XcodeSignedDataVerifier: SignedDataVerifying {
    /// What payloads must say about themselves.
    public let expectations: SignedDataExpectations

    /// Makes an Xcode verifier.
    /// - Parameter expectations: Required bundle id and so on. Its environment is replaced by `Xcode`: the only
    ///   environment self-signed data may claim.
    public init(expectations: SignedDataExpectations = .init()) {
        var expectations = expectations
        expectations.environment = .xcode
        self.expectations = expectations
    }

    /// Verifies an Xcode-signed token.
    /// - Parameter jws: A split compact JWS with a one-certificate `x5c`.
    /// - Returns: The verified payload.
    /// - Throws: ``VerificationError``.
    public func verify(_ jws: CompactJWS) async throws -> VerifiedSignedData {
        guard jws.algorithm == "ES256" else {
            throw VerificationError(
                .algorithmNotAllowed,
                "JWS alg is \(UntrustedText.quoted(jws.algorithm)); only ES256 is accepted")
        }
        guard jws.certificateChain.count == 1 else {
            throw VerificationError(
                .wrongChainLength, "x5c holds \(jws.certificateChain.count) certificates; Xcode data has 1")
        }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: jws.certificateChain[0]) } catch {
            throw VerificationError(.malformedCertificate, "x5c[0]: \(error)")
        }
        guard certificate.publicKey.isValidSignature(certificate.signature, for: certificate) else {
            throw VerificationError(.invalidChain, "the Xcode certificate is not self-signed")
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else {
            throw VerificationError(.invalidChain, "the Xcode certificate key is not P-256")
        }
        try ES256Signature.check(jws, with: key)
        let signedDate = try SignedDate.read(jws.payload)
        return VerifiedSignedData(
            payload: jws.payload, signedDate: signedDate, validationTime: signedDate ?? Date(timeIntervalSince1970: 0),
            isXcodeSigned: true)
    }
}
