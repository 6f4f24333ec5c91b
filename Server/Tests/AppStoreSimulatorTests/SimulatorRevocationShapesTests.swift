import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Apple's newer transaction fields on the simulator's signed transactions, checked after verification: the offer's
/// period, the app transaction id (the same one the signed app transaction names), and a refund's type and share.
@Suite struct SimulatorRevocationShapesTests {
    func verified(_ h: SimulatorHarness, _ transactionID: String) async throws -> JWSTransactionDecodedPayload {
        let signed = try #require(
            try await h.simulator.transactionInfo(transactionID: transactionID, bundleID: h.bundleID)
                .signedTransactionInfo)
        return try await h.verifier.verifyTransaction(signed)
    }

    @Test("an intro offer carries offerPeriod; every transaction names the customer's app transaction")
    func offerPeriodAndAppTransaction() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "p",
            options: PurchaseOptions(offer: .introductory))
        let transaction = try await verified(h, bought.transactionID)
        #expect(transaction.offerType == .introductory && transaction.offerPeriod == "P1W")
        let app = try await h.verifier.verifyAppTransaction(
            try await h.simulator.appTransactionInfo(transactionID: bought.transactionID, bundleID: h.bundleID))
        #expect(transaction.appTransactionId != nil && transaction.appTransactionId == app.appTransactionId)
        let other = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "q")
        #expect(try await verified(h, other.transactionID).appTransactionId != transaction.appTransactionId)
    }

    @Test("a prorated refund says REFUND_PRORATED with its share; a full one REFUND_FULL without")
    func refundShapes() async throws {
        let h = try await SimulatorHarness()
        let prorated = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.annual", customerID: "r")
        try await h.simulator.refund(transactionID: prorated.transactionID, proratedPercentage: 62_500)
        let partial = try await verified(h, prorated.transactionID)
        #expect(partial.revocationType == .refundProrated && partial.revocationPercentage == 62_500)
        #expect(partial.revocationDate != nil)
        let full = try await h.simulator.purchase(bundleID: h.bundleID, productID: "lifetime", customerID: "r")
        try await h.simulator.refund(transactionID: full.transactionID, reason: 1)
        let whole = try await verified(h, full.transactionID)
        #expect(whole.revocationType == .refundFull && whole.revocationPercentage == nil)
        #expect(whole.revocationReason == .appIssue)
    }
}
