import AppStoreModels
import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestSupport
import Testing

/// Stored evidence JSON is exactly what `JSONEncoder` (sorted keys) writes, whether an observation's JSON is
/// encoded now or remembered from an earlier save.
@Suite struct EvidenceEncoderTests {
    static func reference(_ evidence: EvidenceSet) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(evidence), as: UTF8.self)
    }

    /// Real receipts' evidence: many transactions and pending renewal info, dates with milliseconds.
    static func fixtureEvidence() throws -> [EvidenceSet] {
        try ["verifyReceipt_sandbox_revenuecat_sampleapp.json", "verifyReceipt_production_redacted_twigano.json",
             "verifyReceipt_status_21006_legacy_ios6_style.json"].map { file in
            var evidence = EvidenceSet()
            evidence.add(verifyReceiptResponse: try JSONDecoder().decode(VerifyReceiptResponse.self, from: try Fixtures.data("json/\(file)")))
            return evidence
        }
    }

    @Test("real receipts' evidence encodes byte for byte as JSONEncoder, first and remembered")
    func matchesJSONEncoder() throws {
        let encoder = EvidenceEncoder()
        for evidence in try Self.fixtureEvidence() {
            #expect(!evidence.transactions.isEmpty)
            let expected = try Self.reference(evidence)
            #expect(try encoder.encode(evidence) == expected)
            #expect(try encoder.encode(evidence) == expected)
            #expect(try JSONDecoder().decode(EvidenceSet.self, from: Data(expected.utf8)) == evidence)
        }
    }

    @Test("a set that grows reuses what it remembers and still matches; so does the empty set")
    func growing() throws {
        let encoder = EvidenceEncoder(capacity: 3)
        #expect(try encoder.encode(EvidenceSet()) == (try Self.reference(EvidenceSet())))
        var evidence = EvidenceSet()
        for index in 0..<8 {
            var transaction = Transaction(
                transactionID: "t\(index)", originalTransactionID: "o/1", productID: "pro.\"monthly\"", source: .notificationV2)
            transaction.purchaseDate = Date(timeIntervalSince1970: 1_767_225_600.123 + Double(index) * 2_592_000)
            transaction.expiresAt = transaction.purchaseDate?.addingTimeInterval(2_592_000)
            evidence.insert(transaction)
            var renewal = RenewalState(originalTransactionID: "o/1", source: .notificationV2)
            renewal.willAutoRenew = index % 2 == 0
            renewal.observedAt = transaction.purchaseDate
            evidence.insert(renewal)
            // Capacity 3: the memory empties and refills while the set grows past it.
            #expect(try encoder.encode(evidence) == (try Self.reference(evidence)))
        }
    }
}
