import AppStoreVerification
public import Crypto

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
        let x5c = chain.map { "\"\(Base64.standardEncode($0))\"" }.joined(separator: ",")
        let header = "{\"alg\":\"\(algorithm)\",\"x5c\":[\(x5c)]}"
        let signingInput = Base64.urlEncode(Array(header.utf8)) + "." + Base64.urlEncode(payload)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64.urlEncode(signature.rawRepresentation)
    }
}
