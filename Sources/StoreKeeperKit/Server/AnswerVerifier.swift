public import Foundation
import StoreKeeperAPI
import StoreKeeperWire

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// Checks that an answer was signed by the server for this very request (`AnswerSignature` in StoreKeeperAPI): the SDK's side of
/// signed answers. Made from ``StoreKeeper/Configuration/answerSigningKeys``; with none configured, answers are
/// not checked.
public struct AnswerVerifier: Sendable {
    /// Why an answer was refused.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A configured key is not a base64 Ed25519 public key (32 bytes); every answer fails until it is fixed.
        case invalidKey(index: Int)
        /// The answer has no `StoreKeeper-Answer-Signature` or no `StoreKeeper-Answer-Date`.
        case unsigned
        /// No signature verifies with a configured key: the body, status, path or nonce is not what was signed, or
        /// the answer was made for another request body or key.
        case mismatch
        /// A verified answer names a customer who is neither the one asked about nor one of their aliases.
        case otherCustomer

        /// For people.
        public var description: String {
            switch self {
            case .invalidKey(let index): "answerSigningKeys[\(index)] is not a base64 Ed25519 public key (32 bytes)"
            case .unsigned: "the answer carries no signature"
            case .mismatch: "no signature of the answer verifies with a configured key for this request"
            case .otherCustomer: "the answer is about another customer"
            }
        }
    }

    let keys: Result<[Curve25519.Signing.PublicKey], Failure>

    /// A verifier for the server's public keys (base64 of the 32 raw bytes, as `storekeeper keys new signing`
    /// prints them).
    public init(publicKeys: [String]) {
        var parsed: [Curve25519.Signing.PublicKey] = []
        for (index, text) in publicKeys.enumerated() {
            guard let raw = Base64.decode(text.trimmingCharacters(in: .whitespaces)), raw.count == 32,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
            else {
                keys = .failure(.invalidKey(index: index))
                return
            }
            parsed.append(key)
        }
        keys = .success(parsed)
    }

    /// Whether answers are checked at all (a key is configured).
    public var isEnabled: Bool {
        if case .success(let keys) = keys { return !keys.isEmpty }
        return true
    }

    /// A fresh nonce for one request: 24 random bytes, URL-safe base64.
    public static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.urlEncode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Checks one answer: signed (`storekeeper-answer-v2`) for this very request — its nonce, method and target,
    /// the body it sent and the key it sent it with.
    /// - Parameters:
    ///   - nonce: The nonce the request carried.
    ///   - method: The request's method.
    ///   - target: The request's path and query, as sent.
    ///   - requestBody: The request's body as sent (`nil`: none).
    ///   - authorization: The request's `Authorization` value as sent (`Bearer pk_…`).
    ///   - status: The answer's status.
    ///   - headers: The answer's headers (names compared without case).
    ///   - body: The answer's body.
    /// - Throws: ``Failure`` when no configured key signed this answer for this request.
    public func verify(
        nonce: String, method: String, target: String, requestBody: Data?, authorization: String, status: Int,
        headers: [String: String], body: Data
    ) throws(Failure) {
        let keys = try keys.get()
        guard !keys.isEmpty else { return }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        guard let signatures = header(AnswerSignature.signatureHeader), let date = header(AnswerSignature.dateHeader)
        else { throw .unsigned }
        let request = AnswerSignature.Request(
            bodyDigest: SHA256.hash(data: requestBody ?? Data()),
            keyDigest: SHA256.hash(data: Data(authorization.utf8)))
        let message = AnswerSignature.message(
            nonce: nonce, method: method, target: target, status: status, date: date,
            bodyDigest: SHA256.hash(data: body), request: request)
        for signature in AnswerSignature.signatures(in: signatures) {
            for key in keys where key.isValidSignature(signature, for: message) { return }
        }
        throw .mismatch
    }
}
