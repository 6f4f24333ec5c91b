import AppStoreVerification
public import Crypto
import StoreKeeperWire

/// Builds compact ES256 JWS, the way Apple and our simulator do.
public enum JWSSigner {
    /// Signs a payload.
    /// - Parameters:
    ///   - payload: The payload JSON bytes.
    ///   - chain: DER certificates for `x5c`, leaf first.
    ///   - key: The leaf's private key.
    ///   - algorithm: The `alg` header value (tests forge others).
    /// - Returns: The token.
    public static func sign(
        _ payload: [UInt8], chain: [[UInt8]], key: P256.Signing.PrivateKey, algorithm: String = "ES256"
    ) throws -> String {
        try sign(payload, encodedHeader: encodedHeader(chain: chain, algorithm: algorithm), key: key)
    }

    /// The header segment (`alg` and `x5c`, base64url), the same for every token one chain signs: a signer of
    /// many tokens makes it once.
    /// - Parameters:
    ///   - chain: DER certificates for `x5c`, leaf first.
    ///   - algorithm: The `alg` header value.
    /// - Returns: The encoded header.
    public static func encodedHeader(chain: [[UInt8]], algorithm: String = "ES256") -> String {
        CompactJWS.Header(algorithm: algorithm, chain: chain).encoded
    }

    /// Signs a payload under a header made by ``encodedHeader(chain:algorithm:)``.
    /// - Parameters:
    ///   - payload: The payload JSON bytes.
    ///   - encodedHeader: The header segment.
    ///   - key: The leaf's private key.
    /// - Returns: The token.
    public static func sign(_ payload: [UInt8], encodedHeader: String, key: P256.Signing.PrivateKey) throws -> String {
        try CompactJWS.make(payload: payload, encodedHeader: encodedHeader) {
            Array(try key.signature(for: $0).rawRepresentation)
        }
    }
}
