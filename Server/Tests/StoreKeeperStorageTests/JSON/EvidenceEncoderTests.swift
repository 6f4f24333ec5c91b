import AppStoreModels
import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestSupport
import Testing

/// Stored evidence JSON is exactly what `JSONEncoder` (sorted keys) writes, whether an observation's JSON is
/// encoded now or remembered from an earlier save; extended JSON is the stored JSON with only the new
/// observations written after it, and decodes to the union.
@Suite struct EvidenceEncoderTests {
    static func reference(_ evidence: EvidenceSet) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(evidence), as: UTF8.self)
    }

    /// Real receipts' evidence: many transactions and pending renewal info, dates with milliseconds.
    static func fixtureEvidence() throws -> [EvidenceSet] {
        try [
            "verifyReceipt_sandbox_revenuecat_sampleapp.json", "verifyReceipt_production_redacted_twigano.json",
            "verifyReceipt_status_21006_legacy_ios6_style.json",
        ].map { file in
            var evidence = EvidenceSet()
            evidence.add(
                verifyReceiptResponse: try JSONDecoder().decode(
                    VerifyReceiptResponse.self, from: try Fixtures.data("json/\(file)")))
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
        let encoder = EvidenceEncoder(budget: 2_000)  // room for a few observations: most are forgotten again
        #expect(try encoder.encode(EvidenceSet()) == (try Self.reference(EvidenceSet())))
        var evidence = EvidenceSet()
        for index in 0..<8 {
            var transaction = Transaction(
                transactionID: "t\(index)", originalTransactionID: "o/1", productID: "pro.\"monthly\"",
                source: .notificationV2)
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

    @Test("extending stored JSON writes only what is new, after what was stored, and decodes to the union")
    func extending() throws {
        let encoder = EvidenceEncoder()
        for evidence in try Self.fixtureEvidence() {
            // Stored: every other transaction and no renewals; added: everything (half of it already stored).
            var stored = EvidenceSet()
            for (index, transaction) in evidence.transactions.enumerated() where index % 2 == 0 {
                stored.insert(transaction)
            }
            let json = try encoder.encode(stored)
            let extended = try encoder.extend(json, of: stored, adding: evidence)
            #expect(extended.evidence == evidence)
            #expect(try JSONDecoder().decode(EvidenceSet.self, from: Data(extended.json.utf8)) == evidence)
            // Append-only: the stored transactions' JSON is untouched, the new ones follow it.
            let storedTransactions = json.dropLast(2)
            #expect(extended.json.contains(storedTransactions.dropFirst(#"{"renewals":[],"transactions":["#.count)))
            // Nothing new: the same JSON, not rewritten.
            #expect(try encoder.extend(extended.json, of: evidence, adding: stored) == (extended.json, evidence))
        }
    }

    @Test("extending the empty set, and JSON in another layout, still gives the union")
    func extendingEdges() throws {
        let encoder = EvidenceEncoder()
        let evidence = try #require(try Self.fixtureEvidence().first)
        let fromEmpty = try encoder.extend(try encoder.encode(EvidenceSet()), of: EvidenceSet(), adding: evidence)
        #expect(try JSONDecoder().decode(EvidenceSet.self, from: Data(fromEmpty.json.utf8)) == evidence)
        // Written by another encoder (transactions first, spaces): not spliced, written again whole.
        let foreign = #"{ "transactions": [], "renewals": [] }"#
        let rewritten = try encoder.extend(foreign, of: EvidenceSet(), adding: evidence)
        let whole = try Self.reference(rewritten.evidence)
        #expect(rewritten.evidence == evidence && rewritten.json == whole)
    }

    @Test("no evidence is written as SQLAttributeStore.emptyEvidenceJSON, which the guest bound reads as none")
    func emptyEvidence() throws {
        #expect(try EvidenceEncoder().encode(EvidenceSet()) == SQLAttributeStore.emptyEvidenceJSON)
    }
}
