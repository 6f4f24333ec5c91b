import AppStoreModels
import Crypto
public import Foundation
import StoreKeeperWire
import X509

/// Verifies App Store signed data: ES256 only, an `x5c` of exactly leaf, intermediate and root, the root pinned,
/// Apple's marker extensions present, the chain valid at the payload's `signedDate` (or a configured time), and
/// the signature over `header.payload` made by the leaf key.
///
/// The signature is checked before the payload is read, and the chain before anything is returned. Chains are
/// validated once and cached by their exact DER bytes (see ``ChainValidator``).
///
/// ```swift
/// let verifier = try AppStoreSignedDataVerifier(configuration: .init(expectations: .init(bundleID: "com.example")))
/// let transaction = try await verifier.verifyTransaction(token)
/// ```
public struct AppStoreSignedDataVerifier: SignedDataVerifying {
    /// How the verifier decides.
    public struct Configuration: Sendable {
        /// DER roots to trust. Default: Apple Root CA - G3 only; add others (the simulator's) deliberately.
        public var rootCertificates: [[UInt8]] = [AppleRootCertificates.appleRootCAG3]
        /// When set, the chain is checked at this time instead of at the payload's `signedDate`. Default `nil`.
        public var validationTime: Date? = nil
        /// What payloads must say about themselves. Default: nothing.
        public var expectations = SignedDataExpectations()
        /// How many chains the cache remembers. Default 256.
        public var chainCacheCapacity = 256

        /// The defaults: Apple Root CA - G3, validation at `signedDate`, no expectations.
        public init() {}

        /// Makes a configuration.
        /// - Parameters:
        ///   - rootCertificates: DER roots.
        ///   - validationTime: A fixed validation time, or `nil` for `signedDate`.
        ///   - expectations: Payload expectations.
        public init(
            rootCertificates: [[UInt8]] = [AppleRootCertificates.appleRootCAG3],
            validationTime: Date? = nil,
            expectations: SignedDataExpectations = .init()
        ) {
            self.rootCertificates = rootCertificates
            self.validationTime = validationTime
            self.expectations = expectations
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The chain validator and its cache; share one verifier to share the cache.
    public let chainValidator: ChainValidator

    /// Decoded headers by their exact bytes; tokens from one signing certificate share one.
    public let headerCache: JWSHeaderCache

    /// The payload expectations.
    public var expectations: SignedDataExpectations { configuration.expectations }

    /// Makes a verifier.
    /// - Parameter configuration: Roots, validation time and expectations.
    /// - Throws: ``VerificationError/Code/malformedCertificate`` when a configured root does not parse.
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        self.chainValidator = try ChainValidator(
            roots: configuration.rootCertificates, requirements: .appStoreSignedData,
            cacheCapacity: configuration.chainCacheCapacity)
        self.headerCache = JWSHeaderCache(capacity: configuration.chainCacheCapacity)
    }

    /// Splits a token, reusing a header decoded before.
    /// - Parameter token: A compact JWS.
    /// - Returns: Its parts, not yet verified.
    /// - Throws: ``VerificationError/Code/malformed`` or ``VerificationError/Code/inputTooLarge``.
    public func split(_ token: String) throws -> CompactJWS { try CompactJWS(token, headerCache: headerCache) }

    /// Verifies signature and chain.
    /// - Parameter jws: A split compact JWS.
    /// - Returns: The verified payload.
    /// - Throws: ``VerificationError``: `algorithmNotAllowed`, `xcodeNotAllowed`, `wrongChainLength`,
    ///   `invalidSignature`, `malformedPayload`, and the chain errors of ``ChainValidator``.
    public func verify(_ jws: CompactJWS) async throws -> VerifiedSignedData {
        guard jws.algorithm == "ES256" else {
            throw VerificationError(
                .algorithmNotAllowed,
                "JWS alg is \(UntrustedText.quoted(jws.algorithm)); only ES256 is accepted")
        }
        guard jws.certificateChain.count == 3 else {
            if jws.certificateChain.count == 1 {
                throw VerificationError(
                    .xcodeNotAllowed, "x5c holds one certificate (Xcode-signed data); this verifier needs Apple's chain"
                )
            }
            throw VerificationError(
                .wrongChainLength, "x5c holds \(jws.certificateChain.count) certificates; Apple's chain has 3")
        }
        let cached = chainValidator.cachedChain(jws.chainKey, at: nil)
        let leafKey: P256.Signing.PublicKey
        if let cached, let key = P256.Signing.PublicKey(cached.leaf.publicKey) {
            leafKey = key
        } else {
            leafKey = try ES256Signature.leafKey(jws.certificateChain[0])
        }
        try ES256Signature.check(jws, with: leafKey)
        let signedDate = try SignedDate.read(jws.payload)
        guard let time = configuration.validationTime ?? signedDate else {
            throw VerificationError(.malformedPayload, "payload has no signedDate to validate the chain at")
        }
        if let cached, cached.isValid(at: time) {
            return VerifiedSignedData(
                payload: jws.payload, signedDate: signedDate, validationTime: time, isXcodeSigned: false)
        }
        _ = try await chainValidator.validate(jws.certificateChain, at: time)
        return VerifiedSignedData(
            payload: jws.payload, signedDate: signedDate, validationTime: time, isXcodeSigned: false)
    }
}
