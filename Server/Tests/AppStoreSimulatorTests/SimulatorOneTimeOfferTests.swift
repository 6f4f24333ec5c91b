import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Offer codes on products that are not subscriptions: Apple's `ONE_TIME` discount, offer type 3, no period.
@Suite struct SimulatorOneTimeOfferTests {
    @Test("a one-time offer code discounts a consumable; a subscription offer on it is refused")
    func oneTime() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "coins.100", customerID: "o",
            options: PurchaseOptions(offer: .offerCode("COINSHALF")))
        #expect(bought.price == 490 && bought.offerType == 3 && bought.offerDiscountType == "ONE_TIME")
        #expect(bought.offerPeriod == nil)
        let signed = try await h.verifier.verifyTransaction(
            try #require(
                try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: h.bundleID)
                    .signedTransactionInfo))
        #expect(signed.offerDiscountType == .oneTime && signed.offerType == .offerCode)
        #expect(signed.offerIdentifier == "COINSHALF")
        let refused = await #expect(throws: SimulatorError.self) {
            try await h.simulator.purchase(
                bundleID: h.bundleID, productID: "coins.100", customerID: "o",
                options: PurchaseOptions(offer: .introductory))
        }
        #expect(refused?.code == .noOffer)
        let plain = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "o")
        #expect(plain.price == 990 && plain.offerType == nil)
    }
}
