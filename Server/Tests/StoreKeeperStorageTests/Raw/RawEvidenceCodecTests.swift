import AppStoreSigning
import AppStoreSimulator
import Foundation
import StoreKeeperStorage
import TestSupport
import Testing

/// Raw evidence is stored without its repeated certificate chains and rebuilt byte for byte.
@Suite struct RawEvidenceCodecTests {
    static func roundTrips(_ raw: String) throws -> RawEvidenceCodec.Compacted {
        let compacted = try #require(RawEvidenceCodec.compact(raw))
        let rebuilt = try RawEvidenceCodec.expand(compacted.body) { compacted.parts[$0] }
        #expect(rebuilt == raw)
        #expect(RawEvidenceCodec.references(compacted.body) == Set(compacted.parts.keys))
        return compacted
    }

    @Test("Apple's real signed data: the chain is one part, the rest is a fraction, and it rebuilds exactly")
    func appleFixtures() throws {
        for file in try Fixtures.files(in: "jws") where file.hasSuffix(".jws") {
            let raw = try Fixtures.text(file)
            let compacted = try Self.roundTrips(raw)
            #expect(compacted.parts.count == 1, "\(file)")
            if !file.contains("xcode") {
                #expect(compacted.body.utf8.count * 3 < raw.utf8.count, "\(file): \(compacted.body.utf8.count)")
            }
        }
    }

    /// A V2 notification as the simulator signs it: its signed transaction and renewal info nested in its payload.
    static func nestedNotification() throws -> String {
        let keys = SimulatorHarness.sharedPKI.signedData
        func sign(_ object: [String: Any]) throws -> String {
            try JWSSigner.sign(
                Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])), chain: keys.chainDER,
                key: keys.leafKey)
        }
        let transaction = try sign(["transactionId": "2000001", "originalTransactionId": "2000000", "price": 4990])
        let renewal = try sign(["originalTransactionId": "2000000", "autoRenewStatus": 1])
        let payload = try sign([
            "notificationType": "DID_RENEW", "notificationUUID": "6b1b7f4e-0000-4000-8000-000000000001",
            "data": ["signedTransactionInfo": transaction, "signedRenewalInfo": renewal, "status": 1],
        ])
        return String(
            decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": payload]), as: UTF8.self)
    }

    @Test("a V2 notification's three chains (its own and its nested tokens') are stored once")
    func nested() throws {
        let raw = try Self.nestedNotification()
        let compacted = try Self.roundTrips(raw)
        #expect(compacted.parts.count == 1, "one chain signs all three")
        #expect(compacted.body.utf8.count * 4 < raw.utf8.count, "\(compacted.body.utf8.count) of \(raw.utf8.count)")
        #expect(compacted.body.filter { $0 == "\u{2}" }.count == 3, "every payload is kept decoded")
    }

    @Test(
        "evidence without a large signed header is stored as it is",
        arguments: ["", "{\"status\":0}", "a.b.c", "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"])
    func nothingToCompact(raw: String) {
        #expect(RawEvidenceCodec.compact(raw) == nil)
    }

    @Test("a real receipt (base64 PKCS#7) has nothing to compact")
    func receipt() throws {
        let raw = try Fixtures.text("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")
        #expect(RawEvidenceCodec.compact(raw) == nil)
    }

    @Test("a body holding a control character is stored as it is, not misread later")
    func controlCharacters() throws {
        let raw = try Self.nestedNotification()
        #expect(RawEvidenceCodec.compact(raw + "\u{1}") == nil)
        #expect(RawEvidenceCodec.compact("\u{2}" + raw) == nil)
    }

    @Test("a payload that is not canonical base64url stays as it was, and still rebuilds exactly")
    func nonCanonicalPayload() throws {
        let fixture = try Fixtures.text("jws/renewalinfo_sandbox_ringalarm_2023.jws")
        let segments = fixture.split(separator: ".").map(String.init)
        // "e31" decodes to "{}" (its spare bits set) but "{}" encodes as "e30": the payload is kept as stored.
        let raw = segments[0] + ".e31." + segments[2]
        let compacted = try Self.roundTrips(raw)
        #expect(!compacted.body.contains("\u{2}"))
    }

    @Test(
        "a malformed compacted body is a typed error, never a crash",
        arguments: ["\u{1}abc", "\u{1}" + String(repeating: "0", count: 64), "\u{2}unfinished", "stray\u{3}"])
    func malformed(body: String) {
        #expect(throws: RawEvidenceCodec.Problem.self) { try RawEvidenceCodec.expand(body) { _ in nil } }
    }
}
