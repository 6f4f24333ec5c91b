import Foundation
import StoreKeeperWire
import TestSupport
import Testing

@testable import AppStoreVerification

/// `SignedDate` reads a payload's top-level `signedDate` before the payload is trusted, to pick the chain's
/// validation time: the same number a JSON parser reads, or a typed error. It stops at the field: the rest of
/// the payload is checked by the full decode, which runs only after the signature and chain are known good.
@Suite struct SignedDateTests {
    static func read(_ json: String) throws -> Date? { try SignedDate.read(Array(json.utf8)) }

    @Test("milliseconds, fractional milliseconds, absent, and only at the top level")
    func readings() throws {
        #expect(try Self.read(#"{"signedDate":1700000000123}"#) == Date(timeIntervalSince1970: 1_700_000_000.123))
        let fractional = try #require(try Self.read(#"{ "a": {"signedDate": 1}, "signedDate" : 1672956154000.8 }"#))
        #expect(abs(fractional.timeIntervalSince1970 - 1_672_956_154.0008) < 1e-6)
        #expect(try Self.read(#"{"transactionId":"1","b":[1,{"signedDate":5}],"c":"signedDate"}"#) == nil)
        // Truncated after the field: the rest is the full decode's to refuse.
        #expect(try Self.read(#"{"signedDate":1"#) == Date(timeIntervalSince1970: 0.001))
        #expect(try Self.read(#"{"x":"a \"quoted\" \\ string","signedDate":42}"#) == Date(timeIntervalSince1970: 0.042))
    }

    @Test(
        "not an object, or a signedDate that is not a number, is malformed_payload",
        arguments: [
            #"[1,2]"#, #""signedDate""#, #"{"signedDate":"1700000000000"}"#, #"{"signedDate":}"#, "", "{",
        ])
    func malformed(_ json: String) {
        let error = #expect(throws: VerificationError.self) { try Self.read(json) }
        #expect(error?.code == .malformedPayload)
    }

    @Test("Apple's real tokens: the same instant JSONSerialization reads")
    func realTokens() throws {
        for path in try Fixtures.files(in: "jws") {
            let token = try Fixtures.text(path)
            let parts = token.split(separator: ".")
            guard parts.count == 3, let payload = Base64.decode(String(parts[1])) else { continue }
            let object = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
            let expected = (object?["signedDate"] as? NSNumber).map {
                Date(timeIntervalSince1970: $0.doubleValue / 1000)
            }
            #expect(try SignedDate.read(payload) == expected, "\(path)")
        }
    }
}
