import StoreKeeperWire

/// How the server signs an answer to the SDK and what the SDK checks, spelled once for both sides (issue 38,
/// "trusted entitlements"): a device on a hostile network, or a jailbroken phone, must not be able to rewrite an
/// answer and grant itself access.
///
/// The SDK sends a fresh random ``nonceHeader`` with every request. The server answers with ``dateHeader`` (its
/// clock, Unix milliseconds) and ``signatureHeader``: one Ed25519 signature per signing key (two while keys
/// change), base64, separated by commas, each over ``message(nonce:method:target:status:date:bodyDigest:)``. The
/// SDK accepts the answer when one signature verifies with one of its configured public keys; an answer replayed
/// for another request fails, because its signature covers the other request's nonce.
public enum AnswerSignature {
    /// The request's nonce: 16 to 128 characters of the URL-safe base64 alphabet.
    public static let nonceHeader = "StoreKeeper-Nonce"
    /// The server's clock when it signed the answer, in Unix milliseconds.
    public static let dateHeader = "StoreKeeper-Answer-Date"
    /// The answer's signatures: base64 Ed25519 signatures separated by commas.
    public static let signatureHeader = "StoreKeeper-Answer-Signature"
    /// The first line of a version 1 message: the scheme and its version (answers to SDKs that do not name one).
    public static let scheme = "storekeeper-answer-v1"
    /// The first line of a version 2 message, which also binds the answer to the request's body and key.
    public static let schemeV2 = "storekeeper-answer-v2"
    /// The request's choice of scheme: an SDK that checks version 2 sends ``schemeV2`` here. Changing or removing
    /// it on the way gains nothing: the SDK checks the version it asked for, and a version 1 signature is not one.
    public static let schemeHeader = "StoreKeeper-Answer-Scheme"

    /// The request a version 2 answer was made for, beyond its nonce, method and target: what the server read and
    /// in whose name. A traffic rewriter that swaps the body (another customer's id and receipt) or the key (a
    /// sister app's, in another project) gets an answer signed for that other request, which the SDK refuses.
    public struct Request: Sendable, Hashable {
        /// SHA-256 of the request's body bytes (of no bytes when it has none).
        public var bodyDigest: [UInt8]
        /// SHA-256 of the request's `Authorization` header value as sent (`Bearer pk_…`; of no bytes when absent):
        /// the key, and so its app and project.
        public var keyDigest: [UInt8]

        /// The request's digests.
        public init(bodyDigest: some Sequence<UInt8>, keyDigest: some Sequence<UInt8>) {
            self.bodyDigest = Array(bodyDigest)
            self.keyDigest = Array(keyDigest)
        }
    }

    /// Whether `value` is an acceptable nonce: 16 to 128 characters, each `A–Z a–z 0–9 - _`.
    public static func isNonce(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (16...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x5F
        }
    }

    /// The bytes a signature covers, one field per line: the scheme, the nonce, the method and request target
    /// (path and query, as sent), the answer's status, its date, and the base64 SHA-256 digest of its body.
    /// - Parameters:
    ///   - nonce: The request's ``nonceHeader``.
    ///   - method: The request's method (`GET`).
    ///   - target: The request's path and query (`/v1/subscribers/u1`).
    ///   - status: The answer's HTTP status.
    ///   - date: The answer's ``dateHeader`` value.
    ///   - bodyDigest: SHA-256 of the answer's body bytes.
    /// - Returns: The message to sign or verify.
    public static func message(
        nonce: String, method: String, target: String, status: Int, date: String, bodyDigest: some Sequence<UInt8>
    ) -> [UInt8] {
        let lines = [scheme, nonce, "\(method) \(target)", String(status), date, Base64.standardEncode(bodyDigest)]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// The bytes a version 2 signature covers: the version 1 lines under ``schemeV2``, then the base64 SHA-256
    /// of the request's body and of its `Authorization` value, one per line:
    ///
    /// ```
    /// storekeeper-answer-v2
    /// <nonce>
    /// <METHOD> <target>
    /// <status>
    /// <date, Unix ms>
    /// <base64 SHA-256 of the answer's body>
    /// <base64 SHA-256 of the request's body>
    /// <base64 SHA-256 of the request's Authorization value>
    /// ```
    public static func message(
        nonce: String, method: String, target: String, status: Int, date: String, bodyDigest: some Sequence<UInt8>,
        request: Request
    ) -> [UInt8] {
        let lines = [
            schemeV2, nonce, "\(method) \(target)", String(status), date, Base64.standardEncode(bodyDigest),
            Base64.standardEncode(request.bodyDigest), Base64.standardEncode(request.keyDigest),
        ]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// The signatures of a ``signatureHeader`` value; parts that are not base64 are left out.
    public static func signatures(in header: String) -> [[UInt8]] {
        header.split(separator: ",").compactMap { part in
            Base64.decode(part.trimmingCharacters(in: " \t"))
        }
    }

    /// The ``signatureHeader`` value for signatures.
    public static func header(_ signatures: [[UInt8]]) -> String {
        signatures.map { Base64.standardEncode($0) }.joined(separator: ", ")
    }
}

extension Substring {
    /// The text without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
