import Crypto
import Foundation
import Testing

/// What a receiver using a Standard Webhooks library (standardwebhooks.com) checks, written here from the
/// specification rather than from the server's code: `webhook-signature` holds `v1,<base64 HMAC-SHA256>` over
/// `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64 after `whsec_`. (`scripts/test` also checks a
/// live delivery with the PyPI `standardwebhooks` package itself.)
@Suite struct StandardWebhookSignatureTests {
    /// Whether `headers` sign `body` for `secret` as the specification says, sent within five minutes of now.
    static func verifies(_ headers: [String: String], body: Data, secret: String, now: Date = Date()) throws -> Bool {
        let id = try #require(headers["webhook-id"])
        let timestamp = try #require(headers["webhook-timestamp"].flatMap { Int64($0) })
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= 300 else { return false }
        let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(id).\(timestamp).".utf8) + body, using: SymmetricKey(data: key))
        let expected = "v1," + Data(mac).base64EncodedString()
        return (headers["webhook-signature"] ?? "").split(separator: " ").contains { $0 == expected }
    }

    @Test("the specification's own example verifies, and a changed body or id does not")
    func specificationExample() throws {
        let headers = [
            "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330",
            "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
        ]
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let sent = Date(timeIntervalSince1970: 1_614_265_330)
        #expect(try Self.verifies(headers, body: Data(#"{"test": 2432232314}"#.utf8), secret: secret, now: sent))
        #expect(try !Self.verifies(headers, body: Data(#"{"test": 2432232315}"#.utf8), secret: secret, now: sent))
        var otherID = headers
        otherID["webhook-id"] = "msg_other"
        #expect(try !Self.verifies(otherID, body: Data(#"{"test": 2432232314}"#.utf8), secret: secret, now: sent))
        #expect(
            try !Self.verifies(headers, body: Data(#"{"test": 2432232314}"#.utf8), secret: secret, now: Date()),
            "too old")
    }
}
