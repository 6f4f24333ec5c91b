import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Win-back offers as Apple runs them: offered (`eligibleWinBackOfferIds`, best first) only once a subscription has
/// expired, and redeemed as offer type 4.
@Suite struct SimulatorWinBackTests {
    func renewal(_ h: SimulatorHarness, _ original: String) async throws -> JWSRenewalInfoDecodedPayload {
        let statuses = try await h.simulator.allSubscriptionStatuses(transactionID: original, bundleID: h.bundleID)
        let signed = try #require(statuses.data?.first?.lastTransactions?.first?.signedRenewalInfo)
        return try await h.verifier.verifyRenewalInfo(signed)
    }

    @Test("an active subscriber has no win-back offer and cannot redeem one; once expired, it is offered and redeemed")
    func winBack() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "w")
        let original = bought.originalTransactionID
        #expect(try await renewal(h, original).eligibleWinBackOfferIds == nil)
        let early = await #expect(throws: SimulatorError.self) {
            try await h.simulator.purchase(
                bundleID: h.bundleID, productID: "premium.monthly", customerID: "w",
                options: PurchaseOptions(offer: .winBack("comeback")))
        }
        #expect(early?.code == .alreadySubscribed || early?.code == .notEligible)

        try await h.simulator.setAutoRenew(originalTransactionID: original, enabled: false)
        await h.advance(months: 1.2)
        #expect(await h.simulator.subscription(original)?.status == .expired)
        #expect(try await renewal(h, original).eligibleWinBackOfferIds == ["comeback"])

        let unknown = await #expect(throws: SimulatorError.self) {
            try await h.simulator.purchase(
                bundleID: h.bundleID, productID: "premium.monthly", customerID: "w",
                options: PurchaseOptions(offer: .winBack("nonesuch")))
        }
        #expect(unknown?.code == .notEligible)
        let back = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "w",
            options: PurchaseOptions(offer: .winBack("comeback")))
        #expect(back.offerType == 4 && back.offerIdentifier == "comeback" && back.price == 2_990)
        let signed = try await h.verifier.verifyTransaction(
            try #require(
                try await h.simulator.transactionInfo(transactionID: back.transactionID, bundleID: h.bundleID)
                    .signedTransactionInfo))
        #expect(signed.offerType == .winBack)
    }
}
