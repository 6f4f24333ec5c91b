import AppStoreModels
import Foundation
import TestSupport
import Testing

/// Every verifyReceipt-style fixture decodes with the facts its MANIFEST.md lists.
@Suite struct VerifyReceiptResponseTests {
    func response(_ file: String) throws -> VerifyReceiptResponse {
        try JSONDecoder().decode(VerifyReceiptResponse.self, from: try Fixtures.data("json/\(file)"))
    }

    @Test("RevenueCat sandbox response: 9 in_app, 9 latest, pending renewal info")
    func revenueCat() throws {
        let decoded = try response("verifyReceipt_sandbox_revenuecat_sampleapp.json")
        #expect(decoded.status == 0)
        #expect(decoded.environment == .sandbox)
        #expect(decoded.receipt?.bundleId == "com.revenuecat.sampleapp")
        #expect(decoded.receipt?.inApp?.count == 9)
        #expect(decoded.latestReceiptInfo?.count == 9)
        #expect(decoded.receipt?.receiptCreationDate == Fixtures.date("2020-07-22T17:39:08Z"))
        let first = try #require(decoded.receipt?.inApp?.first)
        #expect(first.transactionId == "1000000692879214")
        #expect(first.purchaseDate == Date(timeIntervalSince1970: 1_594_755_400))
        #expect(decoded.pendingRenewalInfo?.isEmpty == false)
        #expect(decoded.latestReceiptInfo?.contains { $0.subscriptionGroupIdentifier != nil } == true)
    }

    @Test("twigano production response: 42 in_app and an expiration intent")
    func twigano() throws {
        let decoded = try response("verifyReceipt_production_redacted_twigano.json")
        #expect(decoded.receipt?.inApp?.count == 42)
        #expect(decoded.receipt?.adamId == 0)
        #expect(decoded.pendingRenewalInfo?.first?.expirationIntent == .customerCancelled)
        #expect(decoded.pendingRenewalInfo?.first?.isInBillingRetryPeriod == false)
        #expect(decoded.pendingRenewalInfo?.first?.autoRenewStatus == .off)
    }

    @Test("iOS 6-style 21006: flat receipt, single latest_expired_receipt_info, ms in expires_date")
    func legacy() throws {
        let decoded = try response("verifyReceipt_status_21006_legacy_ios6_style.json")
        #expect(decoded.status == 21006)
        #expect(decoded.receipt == nil)
        let legacy = try #require(decoded.legacyReceipt)
        #expect(legacy.bid == "com.foo.bar")
        #expect(legacy.expiresDate == Date(timeIntervalSince1970: 1_550_386_188))
        #expect(legacy.isTrialPeriod == true)
        #expect(decoded.latestExpiredReceiptInfo?.transactionId == "140000527258824")
        #expect(decoded.expirationIntent == .customerCancelled)
        #expect(decoded.autoRenewStatus == .off)
    }

    @Test("an error response is just a status")
    func errorStatus() throws {
        let decoded = try response("verifyReceipt_status_21002.json")
        #expect(decoded.status == 21002)
        #expect(VerifyReceiptStatus.isRetryable(decoded.status))
    }

    @Test("encoding writes verifyReceipt's spelling and decodes back to the same value")
    func roundTrip() throws {
        let decoded = try response("verifyReceipt_sandbox_revenuecat_sampleapp.json")
        let encoded = try JSONEncoder().encode(decoded)
        let object = try JSONSerialization.jsonObject(with: encoded) as! [String: Any]
        let item = ((object["receipt"] as! [String: Any])["in_app"] as! [[String: Any]])[0]
        #expect(item["quantity"] as? String == "1")
        #expect(item["purchase_date"] as? String == "2020-07-14 19:36:40 Etc/GMT")
        #expect(item["purchase_date_ms"] as? String == "1594755400000")
        #expect(item["purchase_date_pst"] as? String == "2020-07-14 12:36:40 America/Los_Angeles")
        #expect(try JSONDecoder().decode(VerifyReceiptResponse.self, from: encoded) == decoded)
    }

    @Test("the request never shows its secret")
    func requestRedacts() {
        let request = VerifyReceiptRequest(receiptData: "MIIT", password: "s3cr3t-shared", excludeOldTransactions: true)
        #expect(!request.description.contains("s3cr3t"))
        #expect(!String(describing: request).contains("s3cr3t"))
    }
}
