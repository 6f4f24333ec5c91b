import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Commitment plans as Apple runs them (2026): a yearly product sold monthly within a 12-month commitment. Every
/// period is its own transaction numbered within the commitment; cancelling stops only the next commitment. Every
/// shape is checked after verification.
@Suite struct SimulatorCommitmentPlanTests {
    func renewal(_ h: SimulatorHarness, _ original: String, bundleID: String? = nil) async throws
        -> JWSRenewalInfoDecodedPayload
    {
        let statuses = try await h.simulator.allSubscriptionStatuses(
            transactionID: original, bundleID: bundleID ?? h.bundleID)
        let item = statuses.data?.flatMap { $0.lastTransactions ?? [] }.first { $0.originalTransactionId == original }
        return try await h.verifier.verifyRenewalInfo(try #require(item?.signedRenewalInfo))
    }

    func latest(_ h: SimulatorHarness, _ original: String, bundleID: String? = nil) async throws
        -> JWSTransactionDecodedPayload
    {
        let statuses = try await h.simulator.allSubscriptionStatuses(
            transactionID: original, bundleID: bundleID ?? h.bundleID)
        let item = statuses.data?.flatMap { $0.lastTransactions ?? [] }.first { $0.originalTransactionId == original }
        return try await h.verifier.verifyTransaction(try #require(item?.signedTransactionInfo))
    }

    @Test(
        "monthly billing within a 12-month commitment: each period numbered; a cancellation bills to the end, then expires"
    )
    func commitmentLifecycle() async throws {
        let h = try await SimulatorHarness(maximumRenewals: 40)
        let start = h.clock.now()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.annual", customerID: "c",
            options: {
                var o = PurchaseOptions(); o.billingPlan = "MONTHLY"; return o
            }())
        let original = bought.originalTransactionID
        var transaction = try await latest(h, original)
        #expect(transaction.billingPlanType == .monthly && transaction.price == 7_490)
        var commitment = try #require(transaction.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 1 && commitment.totalBillingPeriods == 12)
        #expect(commitment.commitmentPrice == 89_880)
        let ends = start.addingTimeInterval(12 * h.month)
        #expect(abs(try #require(commitment.commitmentExpiresDate).timeIntervalSince(ends)) < 0.001)
        #expect(abs(try #require(transaction.expiresDate).timeIntervalSince(start.addingTimeInterval(h.month))) < 0.001)
        var info = try await renewal(h, original)
        #expect(info.renewalBillingPlanType == .monthly && info.autoRenewStatus == .on && info.renewalPrice == 7_490)
        #expect(info.commitmentInfo?.commitmentAutoRenewStatus == .on)
        #expect(info.commitmentInfo?.commitmentRenewalBillingPlanType == .monthly)

        await h.advance(months: 2.5)
        transaction = try await latest(h, original)
        commitment = try #require(transaction.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 3 && transaction.transactionReason == .renewal)
        #expect(transaction.price == 7_490)

        // The customer cancels: the commitment's remaining periods still bill.
        try await h.simulator.setAutoRenew(originalTransactionID: original, enabled: false)
        #expect(try await h.lastNotification()! == ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"))
        info = try await renewal(h, original)
        #expect(info.autoRenewStatus == .on && info.commitmentInfo?.commitmentAutoRenewStatus == .off)

        await h.advance(months: 9)
        transaction = try await latest(h, original)
        #expect(transaction.commitmentInfo?.billingPeriodNumber == 12)
        info = try await renewal(h, original)
        #expect(info.autoRenewStatus == .off, "nothing renews after the last period of a cancelled commitment")

        await h.advance(months: 1)
        #expect(await h.simulator.subscription(original)?.status == .expired)
        #expect(try await h.lastNotification()! == ("EXPIRED", "VOLUNTARY"))
        #expect(try await renewal(h, original).expirationIntent == .customerCancelled)
    }

    @Test("a commitment that is not cancelled starts again at period 1 after the twelfth")
    func commitmentRenews() async throws {
        let h = try await SimulatorHarness(maximumRenewals: 40)
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.annual", customerID: "r",
            options: {
                var o = PurchaseOptions(); o.billingPlan = "MONTHLY"; return o
            }())
        await h.advance(months: 12.5)
        let transaction = try await latest(h, bought.originalTransactionID)
        #expect(transaction.commitmentInfo?.billingPeriodNumber == 1)
        let next = try #require(transaction.commitmentInfo?.commitmentExpiresDate)
        #expect(abs(next.timeIntervalSince(bought.purchaseDate.addingTimeInterval(24 * h.month))) < 0.001)
    }

    @Test("up-front billing of a product with a commitment plan says BILLED_UPFRONT; a plan a product lacks is refused")
    func billingPlanChoices() async throws {
        let h = try await SimulatorHarness()
        let upfront = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.annual", customerID: "u")
        let transaction = try await latest(h, upfront.originalTransactionID)
        #expect(transaction.billingPlanType == .billedUpfront && transaction.commitmentInfo == nil)
        #expect(transaction.price == 79_990)
        #expect(try await renewal(h, upfront.originalTransactionID).renewalBillingPlanType == .billedUpfront)
        let monthly = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "basic.monthly", customerID: "m")
        #expect(try await latest(h, monthly.originalTransactionID).billingPlanType == nil)

        for (product, plan) in [
            ("premium.monthly", "MONTHLY"), ("premium.annual", "QUARTERLY"), ("coins.100", "MONTHLY"),
        ] {
            let refused = await #expect(throws: SimulatorError.self) {
                try await h.simulator.purchase(
                    bundleID: h.bundleID, productID: product, customerID: "x",
                    options: {
                        var o = PurchaseOptions(); o.billingPlan = plan; return o
                    }())
            }
            #expect(refused?.code == .invalidBillingPlan, "\(product) \(plan)")
        }
    }

    @Test(
        "a switch to a subscription bundle: the new subscription names the previous one, which stops renewing"
    )
    func switchToBundle() async throws {
        let h = try await SimulatorHarness()
        let bundleID = "com.example.bundles"
        _ = try await h.simulator.createApp(
            SimulatedApp(
                bundleID: bundleID, appAppleID: 42, sharedSecret: "s",
                products: [
                    SimulatedProduct(productID: "news.monthly", subscriptionGroupID: "news"),
                    SimulatedProduct(
                        productID: "everything.monthly", subscriptionGroupID: "bundle", prices: ["USA": 14_990]),
                ]))
        let standalone = try await h.simulator.purchase(
            bundleID: bundleID, productID: "news.monthly", customerID: "b")
        let refused = await #expect(throws: SimulatorError.self) {
            try await h.simulator.purchase(
                bundleID: bundleID, productID: "everything.monthly", customerID: "b",
                options: {
                    var o = PurchaseOptions(); o.replacing = "nonesuch"; return o
                }())
        }
        #expect(refused?.code == .invalidReplacement)
        let bundle = try await h.simulator.purchase(
            bundleID: bundleID, productID: "everything.monthly", customerID: "b",
            options: {
                var o = PurchaseOptions(); o.replacing = standalone.originalTransactionID; return o
            }())
        var transaction = try await latest(h, bundle.originalTransactionID, bundleID: bundleID)
        #expect(transaction.previousOriginalTransactionId == standalone.originalTransactionID)
        let old = try await renewal(h, standalone.originalTransactionID, bundleID: bundleID)
        #expect(old.autoRenewStatus == .off)
        await h.advance(months: 1.5)
        transaction = try await latest(h, bundle.originalTransactionID, bundleID: bundleID)
        #expect(transaction.transactionReason == .renewal)
        #expect(transaction.previousOriginalTransactionId == standalone.originalTransactionID)
        #expect(await h.simulator.subscription(standalone.originalTransactionID)?.status == .expired)
    }
}
