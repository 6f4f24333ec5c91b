import AppStoreModels
import AppStoreVerification
import Foundation
import SubscriptionEngine
import TestSupport
import Testing

/// Every real fixture runs through the engine and gives a state consistent with its contents.
@Suite struct FixtureEngineTests {
    func response(_ file: String) throws -> VerifyReceiptResponse {
        try JSONDecoder().decode(VerifyReceiptResponse.self, from: try Fixtures.data("json/\(file)"))
    }

    func localReceipt(_ file: String, xcode: Bool = false) async throws -> ReceiptInfo {
        try await AppReceiptVerifier(configuration: .init(allowsXcodeReceipts: xcode))
            .verify(base64: try Fixtures.text("receipts/\(file)")).receiptInfo
    }

    @Test("RevenueCat: the local receipt and its verifyReceipt response give the same subscriptions")
    func revenueCatReceiptMatchesResponse() async throws {
        var fromReceipt = EvidenceSet()
        fromReceipt.add(receipt: try await localReceipt("sandbox_ios_revenuecat_sampleapp_2020.b64"))
        var fromResponse = EvidenceSet()
        let apple = try response("verifyReceipt_sandbox_revenuecat_sampleapp.json")
        fromResponse.add(receipt: try #require(apple.receipt), source: .verifyReceipt)
        let engine = SubscriptionEngine()
        for instant in ["2020-07-14T19:40:00Z", "2020-07-22T17:40:00Z", "2021-01-01T00:00:00Z"].map(Fixtures.date) {
            let a = engine.evaluate(fromReceipt, at: instant).subscriptions
            let b = engine.evaluate(fromResponse, at: instant).subscriptions
            #expect(a.map(\.originalTransactionID) == b.map(\.originalTransactionID))
            #expect(a.map(\.status) == b.map(\.status))
            #expect(a.map(\.productID) == b.map(\.productID))
            #expect(a.map(\.expiresAt) == b.map(\.expiresAt))
            #expect(a.map(\.latestTransactionID) == b.map(\.latestTransactionID))
        }
        let later = engine.evaluate(fromResponse, at: Fixtures.date("2021-01-01T00:00:00Z"))
        #expect(!later.subscriptions.isEmpty)
        #expect(later.subscriptions.allSatisfy { $0.status == .expired })
    }

    @Test("RevenueCat response with pending renewal info: consistent with its latest expiry")
    func revenueCatResponse() throws {
        var evidence = EvidenceSet()
        let apple = try response("verifyReceipt_sandbox_revenuecat_sampleapp.json")
        evidence.add(verifyReceiptResponse: apple)
        let latest = try #require(apple.latestReceiptInfo?.compactMap(\.expiresDate).max())
        let state = SubscriptionEngine().evaluate(evidence, at: latest.addingTimeInterval(-1))
        #expect(state.subscriptions.contains { $0.status == .active && $0.expiresAt == latest })
        let after = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2020-07-22T17:54:46Z"))
        #expect(after.subscriptions.allSatisfy { $0.status != .revoked })
    }

    @Test("twigano: the V1 DID_CHANGE_RENEWAL_STATUS says auto-renew off for 1000000723811158")
    func twiganoNotification() throws {
        let body = try JSONDecoder().decode(
            NotificationV1Body.self,
            from: try Fixtures.data("json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json"))
        var evidence = EvidenceSet()
        evidence.add(notificationV1: body)
        let latestExpiry = try #require(body.unifiedReceipt?.latestReceiptInfo?.compactMap(\.expiresDate).max())
        let state = SubscriptionEngine().evaluate(evidence, at: latestExpiry.addingTimeInterval(3600))
        let subscription = try #require(state.subscriptions.first { $0.originalTransactionID == "1000000723811158" })
        #expect(subscription.status == .expired)
        #expect(subscription.willAutoRenew == false)
        #expect(subscription.expirationReason == .voluntary)
        #expect(subscription.expiresAt == latestExpiry)
    }

    @Test("twigano production response: one subscription, expired, voluntarily")
    func twiganoResponse() throws {
        var evidence = EvidenceSet()
        evidence.add(verifyReceiptResponse: try response("verifyReceipt_production_redacted_twigano.json"))
        let state = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2021-09-01T00:00:00Z"))
        #expect(state.subscriptions.map(\.originalTransactionID) == ["1000000723811158"])
        #expect(state.subscriptions[0].status == .expired)
        #expect(state.subscriptions[0].expirationReason == .voluntary)
    }

    @Test("iOS 6-style 21006 response: an expired trial with its expiration intent")
    func legacyResponse() throws {
        var evidence = EvidenceSet()
        evidence.add(verifyReceiptResponse: try response("verifyReceipt_status_21006_legacy_ios6_style.json"))
        let state = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2019-03-01T00:00:00Z"))
        #expect(state.subscriptions.count == 1)
        #expect(state.subscriptions[0].status == .expired)
        #expect(state.subscriptions[0].expirationReason == .voluntary)
        #expect(state.subscriptions[0].offer?.kind == .freeTrial)
        #expect(state.introEligibility["com.foo.product1"] == .unknown)
    }

    @Test("the 187-entry receipt: one state per original transaction id")
    func nutcall() async throws {
        let receipt = try await localReceipt("sandbox_ios_nutcall_sha1_2020.b64")
        var evidence = EvidenceSet()
        evidence.add(receipt: receipt)
        let state = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2020-05-06T18:28:49Z"))
        let originals = Set((receipt.inApp ?? []).filter { $0.expiresDate != nil }.compactMap(\.originalTransactionId))
        #expect(Set(state.subscriptions.map(\.originalTransactionID)) == originals)
        #expect(state.subscriptions.allSatisfy { !$0.explanation.isEmpty })
    }

    @Test("other receipts: Terminal's subscription, Pure's weekly/monthly, MindNode with nothing")
    func otherReceipts() async throws {
        for (file, expectedSubscriptions) in [
            ("production_terminal_one_subscription_2018.b64", 1), ("sandbox_ios_mindnode_no_iap_2017.b64", 0),
        ] {
            var evidence = EvidenceSet()
            evidence.add(receipt: try await localReceipt(file))
            #expect(
                SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2026-01-01T00:00:00Z")).subscriptions.count
                    == expectedSubscriptions)
        }
        var pure = EvidenceSet()
        pure.add(receipt: try await localReceipt("production_ios_pure_2024.b64"))
        let state = SubscriptionEngine().evaluate(pure, at: Fixtures.date("2024-02-23T17:27:16Z"))
        #expect(!state.subscriptions.isEmpty)
    }

    @Test("signed data fixtures: a consumable is a purchase; Xcode's subscription is active after purchase")
    func signedData() async throws {
        let consumable = try await AppStoreSignedDataVerifier()
            .verifyTransaction(try Fixtures.text("jws/transaction_consumable_sandbox_goodheart_2025.jws"))
        var evidence = EvidenceSet()
        evidence.add(transaction: consumable)
        let state = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2025-03-01T00:00:00Z"))
        #expect(state.subscriptions.isEmpty)
        #expect(state.purchases.map(\.kind) == [.consumable])
        #expect(state.entitlements.isEmpty)

        let xcode = XcodeSignedDataVerifier()
        var sk2 = EvidenceSet()
        sk2.add(
            transaction: try await xcode.verifyTransaction(
                try Fixtures.text("jws/xcode_transaction_autorenewable_2023.jws")))
        sk2.add(renewalInfo: try await xcode.verifyRenewalInfo(try Fixtures.text("jws/xcode_renewalinfo_2023.jws")))
        let active = SubscriptionEngine().evaluate(sk2, at: Fixtures.date("2023-10-20T00:00:00Z"))
        #expect(active.subscriptions.first?.status == .active)
        #expect(active.subscriptions.first?.offer?.kind == .introductory)
        #expect(active.subscriptions.first?.willAutoRenew == true)
    }
}

/// The remaining fixtures: Xcode receipts, the TEST notification and renewal info on its own.
@Suite struct RemainingFixtureEngineTests {
    @Test("Xcode receipts: the backyard birds pass is an active subscription or purchase; the empty one has nothing")
    func xcodeReceipts() async throws {
        let verifier = try AppReceiptVerifier(configuration: .init(allowsXcodeReceipts: true))
        let birds = try await verifier.verify(
            base64: try Fixtures.text("receipts/xcode_backyardbirds_with_transaction_2023.b64"))
        var evidence = EvidenceSet()
        evidence.add(receipt: birds.receiptInfo)
        let item = try #require(birds.receipt.inAppPurchases.first)
        let state = SubscriptionEngine().evaluate(evidence, at: try #require(item.purchaseDate).addingTimeInterval(60))
        #expect(state.subscriptions.count + state.purchases.count == 1)
        #expect((state.subscriptions.first?.productID ?? state.purchases.first?.productID) == "pass.premium")
        if let subscription = state.subscriptions.first { #expect(subscription.status == .active) }

        let empty = try await verifier.verify(
            base64: try Fixtures.text("receipts/xcode_dailydictionary_empty_2021.b64"))
        var none = EvidenceSet()
        none.add(receipt: empty.receiptInfo)
        let nothing = SubscriptionEngine().evaluate(none, at: Fixtures.date("2021-08-01T00:00:00Z"))
        #expect(nothing.subscriptions.isEmpty && nothing.purchases.isEmpty && nothing.entitlements.isEmpty)
    }

    @Test("the TEST notification carries no transaction; renewal info alone makes no subscription")
    func notificationAndRenewalOnly() async throws {
        let verifier = try AppStoreSignedDataVerifier()
        let test = try await verifier.verifyNotification(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws"))
        var evidence = EvidenceSet()
        evidence.add(notificationV2: test.payload, transaction: test.transaction, renewalInfo: test.renewalInfo)
        #expect(evidence.transactions.isEmpty && evidence.renewals.isEmpty)
        let renewal = try await verifier.verifyRenewalInfo(
            try Fixtures.text("jws/renewalinfo_sandbox_ringalarm_2023.jws"))
        evidence.add(renewalInfo: renewal)
        #expect(evidence.renewals.count == 1)
        let state = SubscriptionEngine().evaluate(evidence, at: Fixtures.date("2023-06-01T00:00:00Z"))
        #expect(state.subscriptions.isEmpty)
    }
}
