import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import Testing

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// Signed answers, the SDK's side: an answer counts only when a configured key signed exactly it — its body,
/// status, method and path — for this request: its nonce, the body it sent and the key it sent it with. Signed
/// here as the server signs (`AnswerSignature`, `storekeeper-answer-v2`).
@Suite struct AnswerVerifierSpecs {
    static let key = Curve25519.Signing.PrivateKey()
    static let nextKey = Curve25519.Signing.PrivateKey()
    static let body = Data(#"{"subscriber":{"entitlements":[]}}"#.utf8)
    static let nonce = AnswerVerifier.nonce()
    static let sent = Data(#"{"app_user_id":"u1","receipt":"MIIT"}"#.utf8)
    static let authorization = "Bearer pk_app_public_0123456789abcdefghijklmn"

    static func publicKey(_ key: Curve25519.Signing.PrivateKey) -> String {
        key.publicKey.rawRepresentation.base64EncodedString()
    }

    /// The headers the server sends: the date and one signature per key.
    static func headers(
        _ keys: [Curve25519.Signing.PrivateKey], nonce: String = nonce, status: Int = 200, body: Data = body,
        target: String = "/v1/subscribers/u1", sent: Data = sent, authorization: String = authorization,
        version: Int = 2
    ) throws -> [String: String] {
        let date = "1800000000000"
        let request = AnswerSignature.Request(
            bodyDigest: SHA256.hash(data: sent), keyDigest: SHA256.hash(data: Data(authorization.utf8)))
        let message =
            version == 1
            ? AnswerSignature.message(
                nonce: nonce, method: "GET", target: target, status: status, date: date,
                bodyDigest: SHA256.hash(data: body))
            : AnswerSignature.message(
                nonce: nonce, method: "GET", target: target, status: status, date: date,
                bodyDigest: SHA256.hash(data: body), request: request)
        let signatures = try keys.map { Array(try $0.signature(for: message)) }
        return [AnswerSignature.dateHeader: date, AnswerSignature.signatureHeader: AnswerSignature.header(signatures)]
    }

    static func check(
        _ verifier: AnswerVerifier, headers: [String: String], body: Data = body, status: Int = 200,
        target: String = "/v1/subscribers/u1"
    ) -> AnswerVerifier.Failure? {
        do {
            try verifier.verify(
                nonce: nonce, method: "GET", target: target, requestBody: sent, authorization: authorization,
                status: status, headers: headers, body: body)
            return nil
        } catch {
            return error
        }
    }

    @Test("an answer signed for this request by the configured key verifies; header names are matched without case")
    func verified() throws {
        let verifier = AnswerVerifier(publicKeys: [Self.publicKey(Self.key)])
        #expect(verifier.isEnabled)
        #expect(Self.check(verifier, headers: try Self.headers([Self.key])) == nil)
        let lowercased = Dictionary(uniqueKeysWithValues: try Self.headers([Self.key]).map { ($0.lowercased(), $1) })
        #expect(Self.check(verifier, headers: lowercased) == nil)
    }

    @Test("a changed body, status or path, another request's nonce, or another key's signature is refused")
    func tampered() throws {
        let verifier = AnswerVerifier(publicKeys: [Self.publicKey(Self.key)])
        let signed = try Self.headers([Self.key])
        #expect(Self.check(verifier, headers: signed, body: Data(#"{"subscriber":{"pro":true}}"#.utf8)) == .mismatch)
        #expect(Self.check(verifier, headers: signed, status: 201) == .mismatch)
        #expect(Self.check(verifier, headers: signed, target: "/v1/subscribers/u2") == .mismatch)
        let replayed = try Self.headers([Self.key], nonce: AnswerVerifier.nonce())
        #expect(Self.check(verifier, headers: replayed) == .mismatch)
        #expect(Self.check(verifier, headers: try Self.headers([Self.nextKey])) == .mismatch)
        var garbled = signed
        garbled[AnswerSignature.signatureHeader] = "not base64!, AAAA"
        #expect(Self.check(verifier, headers: garbled) == .mismatch)
    }

    @Test("an answer signed for another request body or another key, or signed as version 1, is refused")
    func boundToTheRequest() throws {
        let verifier = AnswerVerifier(publicKeys: [Self.publicKey(Self.key)])
        // A rewriter sent a paying customer's receipt in place of this device's: the server signed what it read.
        let swappedBody = try Self.headers([Self.key], sent: Data(#"{"app_user_id":"u1","receipt":"PAID"}"#.utf8))
        #expect(Self.check(verifier, headers: swappedBody) == .mismatch)
        // A rewriter sent a sister app's key: the server answered in that app's project.
        let swappedKey = try Self.headers([Self.key], authorization: "Bearer pk_sister_public_0123456789abcdefghij")
        #expect(Self.check(verifier, headers: swappedKey) == .mismatch)
        #expect(Self.check(verifier, headers: try Self.headers([Self.key], version: 1)) == .mismatch)
    }

    @Test("an answer without a signature or a date is unsigned")
    func unsigned() throws {
        let verifier = AnswerVerifier(publicKeys: [Self.publicKey(Self.key)])
        var headers = try Self.headers([Self.key])
        headers[AnswerSignature.signatureHeader] = nil
        #expect(Self.check(verifier, headers: headers) == .unsigned)
        headers = try Self.headers([Self.key])
        headers[AnswerSignature.dateHeader] = nil
        #expect(Self.check(verifier, headers: headers) == .unsigned)
    }

    @Test("while the key changes: an app with the old key and one with the new both verify an answer signed by both")
    func rotation() throws {
        let both = try Self.headers([Self.key, Self.nextKey])
        #expect(Self.check(AnswerVerifier(publicKeys: [Self.publicKey(Self.key)]), headers: both) == nil)
        #expect(Self.check(AnswerVerifier(publicKeys: [Self.publicKey(Self.nextKey)]), headers: both) == nil)
        let app = AnswerVerifier(publicKeys: [Self.publicKey(Self.key), Self.publicKey(Self.nextKey)])
        #expect(Self.check(app, headers: try Self.headers([Self.nextKey])) == nil)
    }

    @Test("a key that is not base64 Ed25519 fails every answer, naming its place; no key checks nothing")
    func configuration() throws {
        let broken = AnswerVerifier(publicKeys: [Self.publicKey(Self.key), "c2hvcnQ="])
        #expect(broken.isEnabled)
        #expect(Self.check(broken, headers: try Self.headers([Self.key])) == .invalidKey(index: 1))
        #expect(AnswerVerifier.Failure.invalidKey(index: 1).description.contains("answerSigningKeys[1]"))
        let none = AnswerVerifier(publicKeys: [])
        #expect(!none.isEnabled && Self.check(none, headers: [:]) == nil)
    }

    @Test("nonces are fresh and of the accepted shape")
    func nonces() {
        let nonces = (0..<100).map { _ in AnswerVerifier.nonce() }
        #expect(Set(nonces).count == 100 && nonces.allSatisfy(AnswerSignature.isNonce))
        #expect(!AnswerSignature.isNonce("short") && !AnswerSignature.isNonce(String(repeating: "a", count: 129)))
        #expect(!AnswerSignature.isNonce("abcdefghijklmnop\n"))
    }
}
