import AppStoreModels
import AppStoreSimulator
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// Lifecycles driven through the simulator: at each step, the notification Apple would send (verified with
/// StoreKeeper's own verifier), the Server API status, and what verifyReceipt says.
@Suite struct SimulatorLifecycleTests {
    func expectLast(_ h: SimulatorHarness, _ type: String, _ subtype: String?, _ comment: String = "") async throws {
        let last = try await h.lastNotification()
        #expect(last?.0 == type && last?.1 == subtype, "\(comment): got \(String(describing: last))")
    }

    @Test("initial buy, then two renewals on the sandbox clock")
    func renewals() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "alice")
        try await expectLast(h, "SUBSCRIBED", "INITIAL_BUY")
        #expect(try await h.apiStatus(bought.transactionID) == 1)
        #expect(bought.expiresDate == bought.purchaseDate.addingTimeInterval(h.month))
        await h.advance(months: 2.01)
        #expect(try await h.notifications().map(\.0) == ["SUBSCRIBED", "DID_RENEW", "DID_RENEW"])
        let receipt = try await h.verifyReceipt(customerID: "alice")
        #expect(receipt.status == 0)
        #expect(receipt.latestReceiptInfo?.count == 3)
        #expect(receipt.receipt?.inApp?.count == 3)
        #expect(receipt.pendingRenewalInfo?.first?.autoRenewStatus == .on)
    }

    @Test("free trial, then paid; intro offer only once per group")
    func trial() async throws {
        let h = try await SimulatorHarness()
        let trial = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "bob", options: .init(offer: .introductory))
        #expect(trial.offerType == 1 && trial.offerDiscountType == "FREE_TRIAL" && trial.price == 0)
        await h.advance(months: 0.7)  // the sandbox week lasts 3 minutes
        try await expectLast(h, "DID_RENEW", nil)
        let paid = try await h.verifyReceipt(customerID: "bob")
        #expect(paid.latestReceiptInfo?.first?.isTrialPeriod == false)
        #expect(paid.latestReceiptInfo?.last?.isTrialPeriod == true)
    }

    @Test("cancel: auto-renew off, then EXPIRED / VOLUNTARY")
    func cancel() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "basic.monthly", customerID: "carol")
        try await h.simulator.setAutoRenew(originalTransactionID: bought.transactionID, enabled: false)
        try await expectLast(h, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED")
        #expect(try await h.apiStatus(bought.transactionID) == 1)
        await h.advance(months: 1.01)
        try await expectLast(h, "EXPIRED", "VOLUNTARY")
        #expect(try await h.apiStatus(bought.transactionID) == 2)
        let receipt = try await h.verifyReceipt(customerID: "carol")
        #expect(receipt.pendingRenewalInfo?.first?.expirationIntent == .customerCancelled)
    }

    @Test("upgrade takes effect immediately; the old period is marked upgraded")
    func upgrade() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "basic.monthly", customerID: "dan")
        await h.advance(months: 0.5)
        let upgraded = try #require(
            try await h.simulator.changePlan(originalTransactionID: bought.transactionID, to: "premium.monthly"))
        try await expectLast(h, "DID_CHANGE_RENEWAL_PREF", "UPGRADE")
        #expect(upgraded.productID == "premium.monthly" && upgraded.originalTransactionID == bought.transactionID)
        #expect(await h.simulator.transaction(bought.transactionID)?.isUpgraded == true)
        let receipt = try await h.verifyReceipt(customerID: "dan")
        #expect(receipt.latestReceiptInfo?.first?.productId == "premium.monthly")
        #expect(receipt.latestReceiptInfo?.last?.isUpgraded == true)
        #expect(try await h.apiStatus(bought.transactionID) == 1)
    }

    @Test("downgrade takes effect at the next renewal")
    func downgrade() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "erin")
        #expect(
            try await h.simulator.changePlan(originalTransactionID: bought.transactionID, to: "basic.monthly") == nil)
        try await expectLast(h, "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
        #expect(
            try await h.verifyReceipt(customerID: "erin").pendingRenewalInfo?.first?.autoRenewProductId
                == "basic.monthly")
        await h.advance(months: 1.01)
        try await expectLast(h, "DID_RENEW", nil)
        #expect(await h.simulator.subscription(bought.transactionID)?.productID == "basic.monthly")
    }

    @Test("crossgrade to another period at the same level waits for renewal")
    func crossgrade() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "fay")
        #expect(
            try await h.simulator.changePlan(originalTransactionID: bought.transactionID, to: "premium.annual") == nil)
        try await expectLast(h, "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
        await h.advance(months: 1.01)
        let renewed = try #require(await h.simulator.subscription(bought.transactionID))
        #expect(renewed.productID == "premium.annual")
        #expect(
            renewed.periodEnd.timeIntervalSince(
                await h.simulator.transaction(renewed.latestTransactionID)!.purchaseDate) == 60 * 60)
    }

    @Test("refund of a renewal revokes; reversing it restores")
    func refundAndReverse() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "gus")
        await h.advance(months: 1.01)
        let renewal = try #require(await h.simulator.subscription(bought.transactionID)?.latestTransactionID)
        try await h.simulator.refund(transactionID: renewal, reason: 1)
        try await expectLast(h, "REFUND", nil)
        #expect(try await h.apiStatus(bought.transactionID) == 5)
        let refunded = try await h.verifyReceipt(customerID: "gus")
        #expect(refunded.latestReceiptInfo?.first?.cancellationDate != nil)
        #expect(refunded.latestReceiptInfo?.first?.cancellationReason == .appIssue)
        let history = try await h.simulator.refundHistory(transactionID: bought.transactionID, bundleID: h.bundleID)
        #expect(history.signedTransactions?.count == 1)
        try await h.simulator.reverseRefund(transactionID: renewal)
        try await expectLast(h, "REFUND_REVERSED", nil)
        #expect(try await h.apiStatus(bought.transactionID) == 1)
        #expect(try await h.verifyReceipt(customerID: "gus").latestReceiptInfo?.first?.cancellationDate == nil)
    }

    @Test("billing failure → grace period → recover")
    func graceRecover() async throws {
        let h = try await SimulatorHarness(gracePeriodDays: 16)
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "hal")
        try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID)
        await h.advance(months: 1.01)
        try await expectLast(h, "DID_FAIL_TO_RENEW", "GRACE_PERIOD")
        #expect(try await h.apiStatus(bought.transactionID) == 4)
        let inGrace = try await h.verifyReceipt(customerID: "hal")
        #expect(inGrace.pendingRenewalInfo?.first?.isInBillingRetryPeriod == true)
        #expect(inGrace.pendingRenewalInfo?.first?.gracePeriodExpiresDate != nil)
        try await h.simulator.recoverBilling(originalTransactionID: bought.transactionID)
        try await expectLast(h, "DID_RENEW", "BILLING_RECOVERY")
        #expect(try await h.apiStatus(bought.transactionID) == 1)
    }

    @Test("grace period ends into billing retry, then EXPIRED / BILLING_RETRY")
    func graceExpires() async throws {
        let h = try await SimulatorHarness(gracePeriodDays: 3)
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "ida")
        try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID)
        await h.advance(months: 1.01)
        #expect(try await h.apiStatus(bought.transactionID) == 4)
        await h.advance(months: 0.2)
        try await expectLast(h, "GRACE_PERIOD_EXPIRED", nil)
        #expect(try await h.apiStatus(bought.transactionID) == 3)
        await h.advance(months: 2.1)
        try await expectLast(h, "EXPIRED", "BILLING_RETRY")
        #expect(try await h.apiStatus(bought.transactionID) == 2)
        #expect(
            try await h.verifyReceipt(customerID: "ida").pendingRenewalInfo?.first?.expirationIntent == .billingError)
    }

    @Test("billing retry without grace → expire")
    func retryExpires() async throws {
        let h = try await SimulatorHarness(gracePeriodDays: 0)
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "basic.monthly", customerID: "jo")
        try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID)
        await h.advance(months: 1.01)
        try await expectLast(h, "DID_FAIL_TO_RENEW", nil)
        #expect(try await h.apiStatus(bought.transactionID) == 3)
        await h.advance(months: 2.01)
        try await expectLast(h, "EXPIRED", "BILLING_RETRY")
    }

    @Test("family sharing revoked")
    func familyRevoke() async throws {
        let h = try await SimulatorHarness()
        let shared = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "kim", options: .init(familyShared: true))
        #expect(shared.ownership == "FAMILY_SHARED")
        try await h.simulator.revokeFamilySharing(transactionID: shared.transactionID)
        try await expectLast(h, "REVOKE", nil)
        #expect(try await h.apiStatus(shared.transactionID) == 5)
        let info = try await h.simulator.transactionInfo(transactionID: shared.transactionID, bundleID: h.bundleID)
        let decoded = try await h.verifier.verifyTransaction(try #require(info.signedTransactionInfo))
        #expect(decoded.revocationType == .familyRevoke)
    }

    @Test("price increase declined → EXPIRED / PRICE_INCREASE; accepted → renews at the new price")
    func priceIncrease() async throws {
        let h = try await SimulatorHarness()
        let declines = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "lee")
        let accepts = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "max")
        try await h.simulator.increasePrice(bundleID: h.bundleID, productID: "premium.monthly", newPrice: 12_990)
        try await expectLast(h, "PRICE_INCREASE", "PENDING")
        try await h.simulator.respondToPriceIncrease(originalTransactionID: accepts.transactionID, accept: true)
        try await expectLast(h, "PRICE_INCREASE", "ACCEPTED")
        await h.advance(months: 1.01)
        #expect(try await h.apiStatus(declines.transactionID) == 2)
        #expect(
            try await h.verifyReceipt(customerID: "lee").pendingRenewalInfo?.first?.expirationIntent
                == .priceIncreaseDeclined)
        #expect(try await h.notifications().contains { $0 == ("EXPIRED", "PRICE_INCREASE") })
        let renewed = try #require(await h.simulator.subscription(accepts.transactionID))
        #expect(renewed.status == .active)
        #expect(await h.simulator.transaction(renewed.latestTransactionID)?.price == 12_990)
    }

    @Test("offer code redemption: OFFER_REDEEMED / INITIAL_BUY")
    func offerCode() async throws {
        let h = try await SimulatorHarness()
        let redeemed = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "ned",
            options: .init(offer: .offerCode("SPRING")))
        try await expectLast(h, "OFFER_REDEEMED", "INITIAL_BUY")
        #expect(redeemed.offerType == 3 && redeemed.offerIdentifier == "SPRING")
        #expect(try await h.verifyReceipt(customerID: "ned").latestReceiptInfo?.first?.offerCodeRefName == "SPRING")
    }

    @Test("resubscribe after a lapse keeps the original transaction id")
    func resubscribe() async throws {
        let h = try await SimulatorHarness()
        let first = try await h.simulator.purchase(bundleID: h.bundleID, productID: "basic.monthly", customerID: "oli")
        try await h.simulator.setAutoRenew(originalTransactionID: first.transactionID, enabled: false)
        await h.advance(months: 1.5)
        #expect(try await h.apiStatus(first.transactionID) == 2)
        let again = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "oli")
        try await expectLast(h, "SUBSCRIBED", "RESUBSCRIBE")
        #expect(again.originalTransactionID == first.transactionID)
        #expect(try await h.apiStatus(first.transactionID) == 1)
    }

    @Test("the sandbox stops after 12 renewals")
    func renewalCap() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "basic.monthly", customerID: "pat")
        await h.advance(months: 14)
        let types = try await h.notifications()
        #expect(types.filter { $0.0 == "DID_RENEW" }.count == 12)
        #expect(types.last! == ("EXPIRED", "VOLUNTARY"))
        #expect(try await h.apiStatus(bought.transactionID) == 2)
        #expect(try await h.verifyReceipt(customerID: "pat").latestReceiptInfo?.count == 13)
    }

    @Test("renewal date extension and one-time purchases")
    func extensionAndOneTime() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "quin")
        let before = try #require(bought.expiresDate)
        var request = ExtendRenewalDateRequest()
        request.extendByDays = 30
        request.extendReasonCode = 1
        request.requestIdentifier = "r-1"
        let response = try await h.simulator.extendRenewalDate(
            originalTransactionID: bought.transactionID, bundleID: h.bundleID, request: request)
        #expect(response.success == true && response.effectiveDate == before.addingTimeInterval(h.month))
        try await expectLast(h, "RENEWAL_EXTENDED", nil)
        let coins = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "quin")
        try await expectLast(h, "ONE_TIME_CHARGE", nil)
        try await h.simulator.requestConsumption(transactionID: coins.transactionID)
        try await expectLast(h, "CONSUMPTION_REQUEST", nil)
        try await h.simulator.refund(transactionID: coins.transactionID)
        try await expectLast(h, "REFUND", nil)
    }

    @Test("a full year with one billing failure and recovery runs in well under 10 s")
    func fullYear() async throws {
        let started = ContinuousClock.now
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "rae")
        for month in 1...12 {
            if month == 6 { try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID) }
            await h.advance(months: 1)
            if month == 6 {
                #expect(try await h.apiStatus(bought.transactionID) == 4)
                try await h.simulator.recoverBilling(originalTransactionID: bought.transactionID)
            }
        }
        let types = try await h.notifications().map { "\($0.0)/\($0.1 ?? "")" }
        #expect(types.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD") && types.contains("DID_RENEW/BILLING_RECOVERY"))
        #expect(types.filter { $0.hasPrefix("DID_RENEW") }.count >= 11)
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
