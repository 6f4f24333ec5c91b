public import Foundation
public import StoreKeeperAPI
import StoreKeeperWire

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// Signs the server's answers to the SDK (``AnswerSignature``) with every configured key: one signature per key,
/// so apps that know the old public key and apps that know the new one both verify while the key changes.
public struct AnswerSigner: Sendable {
    let keys: [Curve25519.Signing.PrivateKey]

    /// Signers of the configuration's `answerSigningKeys`.
    /// - Parameter privateKeys: Base64 of each key's 32 raw bytes.
    /// - Throws: ``ConfigurationError`` naming the entry (never its value) that is not such a key.
    public init(privateKeys: [String]) throws {
        keys = try privateKeys.enumerated().map { index, text in
            guard let raw = Base64.decode(text.trimmingCharacters(in: .whitespaces)), raw.count == 32,
                let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
            else {
                throw ConfigurationError(
                    "answerSigningKeys[\(index)] is not a base64 Ed25519 private key of 32 bytes "
                        + "(storekeeper keys new signing prints one)")
            }
            return key
        }
    }

    /// A new key pair: the private half for the server's configuration, the public half for the SDK's.
    /// - Returns: Both halves, base64 of their 32 raw bytes.
    public static func newKeyPair() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (Base64.standardEncode(key.rawRepresentation), Base64.standardEncode(key.publicKey.rawRepresentation))
    }

    /// Whether there is a key to sign with.
    public var isEnabled: Bool { !keys.isEmpty }

    /// The ``AnswerSignature/signatureHeader`` value for one answer.
    /// - Parameters:
    ///   - nonce: The request's nonce.
    ///   - method: The request's method.
    ///   - target: The request's path and query, as received.
    ///   - status: The answer's status.
    ///   - date: The answer's ``AnswerSignature/dateHeader`` value.
    ///   - body: The answer's body.
    /// - Returns: The signatures, comma separated.
    /// - Throws: When the cryptography fails (it does not for a valid key).
    ///   - request: What binds the answer to its request (version 2), or `nil` for a version 1 signature.
    public func signatures(
        nonce: String, method: String, target: String, status: Int, date: String, body: some DataProtocol,
        request: AnswerSignature.Request? = nil
    ) throws -> String {
        let digest = SHA256.hash(data: body)
        let message =
            if let request {
                AnswerSignature.message(
                    nonce: nonce, method: method, target: target, status: status, date: date, bodyDigest: digest,
                    request: request)
            } else {
                AnswerSignature.message(
                    nonce: nonce, method: method, target: target, status: status, date: date, bodyDigest: digest)
            }
        return AnswerSignature.header(try keys.map { Array(try $0.signature(for: message)) })
    }

    /// The version 2 binding of a request with `body` and `authorization` (its header value, `nil` when absent).
    public static func binding(body: some DataProtocol, authorization: String?) -> AnswerSignature.Request {
        AnswerSignature.Request(
            bodyDigest: SHA256.hash(data: body), keyDigest: SHA256.hash(data: Array((authorization ?? "").utf8)))
    }
}
