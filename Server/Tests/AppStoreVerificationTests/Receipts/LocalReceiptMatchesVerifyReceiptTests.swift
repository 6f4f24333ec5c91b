import AppStoreModels
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// A receipt decoded on our machine says what Apple's verifyReceipt said about the same receipt.
@Suite struct LocalReceiptMatchesVerifyReceiptTests {
    @Test("RevenueCat sample receipt: local in_app equals verifyReceipt's receipt.in_app")
    func revenueCat() async throws {
        let local = try await AppReceiptVerifier()
            .verify(base64: try Fixtures.text("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")).receiptInfo
        let apple = try JSONDecoder().decode(
            VerifyReceiptResponse.self, from: try Fixtures.data("json/verifyReceipt_sandbox_revenuecat_sampleapp.json"))
        let remote = try #require(apple.receipt)
        #expect(local.bundleId == remote.bundleId)
        #expect(local.applicationVersion == remote.applicationVersion)
        #expect(local.originalApplicationVersion == remote.originalApplicationVersion)
        #expect(local.receiptCreationDate == remote.receiptCreationDate)
        #expect(local.originalPurchaseDate == remote.originalPurchaseDate)
        let localItems = (local.inApp ?? []).sorted { ($0.transactionId ?? "") < ($1.transactionId ?? "") }
        let remoteItems = (remote.inApp ?? []).sorted { ($0.transactionId ?? "") < ($1.transactionId ?? "") }
        #expect(localItems.count == remoteItems.count)
        for (mine, theirs) in zip(localItems, remoteItems) {
            #expect(mine.transactionId == theirs.transactionId)
            #expect(mine.originalTransactionId == theirs.originalTransactionId)
            #expect(mine.productId == theirs.productId)
            #expect(mine.quantity == theirs.quantity)
            #expect(mine.purchaseDate == theirs.purchaseDate)
            #expect(mine.originalPurchaseDate == theirs.originalPurchaseDate)
            #expect(mine.expiresDate == theirs.expiresDate)
            #expect(mine.webOrderLineItemId == theirs.webOrderLineItemId)
            #expect(mine.isTrialPeriod == theirs.isTrialPeriod)
            #expect(mine.isInIntroOfferPeriod == theirs.isInIntroOfferPeriod)
        }
    }

    @Test("the full receipt inside the twigano V1 notification verifies: 54 in-app entries")
    func receiptInsideNotification() async throws {
        let body = try JSONDecoder().decode(
            NotificationV1Body.self,
            from: try Fixtures.data("json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json"))
        let verified = try await AppReceiptVerifier().verify(base64: try #require(body.unifiedReceipt?.latestReceipt))
        #expect(verified.receipt.bundleID == "com.twigano.fashion")
        #expect(verified.receipt.inAppPurchases.count == 54)
        #expect(verified.receipt.receiptType == "ProductionSandbox")
    }

    @Test("the 187-entry receipt keeps undocumented attributes raw instead of failing")
    func undocumentedAttributes() async throws {
        let verified = try await AppReceiptVerifier()
            .verify(base64: try Fixtures.text("receipts/sandbox_ios_nutcall_sha1_2020.b64"))
        #expect(verified.receipt.inAppPurchases.count == 187)
        #expect(!verified.receipt.otherAttributes.isEmpty)
        #expect(verified.receipt.inAppPurchases.allSatisfy { $0.transactionID != nil && $0.productID != nil })
        #expect(verified.receipt.inAppPurchases.contains { !$0.otherAttributes.isEmpty })
    }
}
