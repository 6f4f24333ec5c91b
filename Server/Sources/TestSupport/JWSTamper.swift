import AppStoreSigning
import AppStoreVerification
import Crypto
import Foundation
import StoreKeeperWire

/// Ways an attacker alters an App Store token, for tests that prove each one is refused.
public enum JWSTamper {
    /// Splits a token into its three base64url parts.
    public static func parts(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The decoded header JSON as a dictionary.
    public static func header(_ token: String) -> [String: Any] {
        let bytes = Base64.decode(parts(token)[0])!
        return try! JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
    }

    /// The `x5c` DER certificates of a token.
    public static func chain(_ token: String) -> [[UInt8]] {
        (header(token)["x5c"] as! [String]).map { Base64.decode($0)! }
    }

    /// The payload edited after signing (a field value changed, the signature kept).
    public static func editedPayload(_ token: String) -> String {
        var p = parts(token)
        var payload = String(decoding: Base64.decode(p[1])!, as: UTF8.self)
        // Move signedDate by one millisecond: a minimal, plausible edit.
        if let range = payload.range(of: "\"signedDate\":") {
            let digit = payload.index(range.upperBound, offsetBy: 3)
            let replaced: Character = payload[digit] == "1" ? "2" : "1"
            payload.replaceSubrange(digit...digit, with: String(replaced))
        } else {
            payload = payload.replacingOccurrences(of: "}", with: ",\"x\":1}")
        }
        p[1] = Base64.urlEncode(Array(payload.utf8))
        return p.joined(separator: ".")
    }

    /// One bit of the signature flipped.
    public static func flippedSignature(_ token: String) -> String {
        var p = parts(token)
        var signature = Base64.decode(p[2])!
        signature[10] ^= 0x01
        p[2] = Base64.urlEncode(signature)
        return p.joined(separator: ".")
    }

    /// The header rewritten with another `alg` (and the original x5c), keeping payload and signature.
    public static func withAlgorithm(_ token: String, _ algorithm: String?) -> String {
        var p = parts(token)
        let x5c = (header(token)["x5c"] as! [String]).map { "\"\($0)\"" }.joined(separator: ",")
        let alg = algorithm.map { "\"alg\":\"\($0)\"," } ?? ""
        p[0] = Base64.urlEncode(Array("{\(alg)\"x5c\":[\(x5c)]}".utf8))
        return p.joined(separator: ".")
    }

    /// `alg: none` with an empty signature.
    public static func algorithmNone(_ token: String) -> String {
        var p = parts(withAlgorithm(token, "none"))
        p[2] = ""
        return p.joined(separator: ".")
    }

    /// `alg: HS256` with an HMAC keyed by the leaf certificate (the classic key-confusion attack).
    public static func hs256KeyedWithLeaf(_ token: String) -> String {
        var p = parts(withAlgorithm(token, "HS256"))
        let key = SymmetricKey(data: chain(token)[0])
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(p[0]).\(p[1])".utf8), using: key)
        p[2] = Base64.urlEncode(Array(mac))
        return p.joined(separator: ".")
    }

    /// The same payload signed by a look-alike chain: Apple's names and OIDs, another key.
    public static func lookAlikeChain(_ token: String) throws -> String {
        try SigningAuthority().sign(Base64.decode(parts(token)[1])!)
    }

    /// The same payload signed by a foreign leaf placed under Apple's real intermediate and root.
    public static func foreignLeafUnderAppleChain(_ token: String) throws -> String {
        let apple = chain(token)
        let foreignKey = P256.Signing.PrivateKey()
        let intermediateName = try X509Bridge.subject(apple[1])
        let leaf = try SigningAuthority.leaf(
            key: foreignKey, issuer: intermediateName, issuerKey: .init(P256.Signing.PrivateKey()))
        return try JWSSigner.sign(
            Base64.decode(parts(token)[1])!, chain: [SigningAuthority.der(leaf), apple[1], apple[2]], key: foreignKey)
    }

    /// `payload` signed as Xcode signs StoreKit testing data: one self-signed certificate in `x5c`, which anyone
    /// can make.
    public static func selfSigned(_ payload: [UInt8]) throws -> String {
        let key = P256.Signing.PrivateKey()
        let certificate = try SigningAuthority.leaf(
            key: key, issuer: SigningAuthority.appleLeafName, issuerKey: .init(key), withAppleExtension: false)
        return try JWSSigner.sign(payload, chain: [SigningAuthority.der(certificate)], key: key)
    }

    /// The token's payload JSON with `edit` applied, signed as ``selfSigned(_:)`` signs.
    public static func selfSigned(_ token: String, editing edit: (inout [String: Any]) -> Void) throws -> String {
        var object = try JSONSerialization.jsonObject(with: Data(Base64.decode(parts(token)[1])!)) as! [String: Any]
        edit(&object)
        return try selfSigned(Array(try JSONSerialization.data(withJSONObject: object)))
    }

    /// The token cut in half.
    public static func truncated(_ token: String) -> String {
        String(token.prefix(token.count / 2))
    }
}
