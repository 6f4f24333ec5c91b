import AppStoreModels
import Foundation
import TestSupport
import Testing

/// The real V1 notification decodes, and its description hides the shared secret.
@Suite struct NotificationV1BodyTests {
    @Test("DID_CHANGE_RENEWAL_STATUS from twigano")
    func twigano() throws {
        let body = try JSONDecoder().decode(
            NotificationV1Body.self,
            from: try Fixtures.data("json/notificationV1_DID_CHANGE_RENEWAL_STATUS_sandbox_twigano.json"))
        #expect(body.notificationType == .didChangeRenewalStatus)
        #expect(body.environment == .sandbox)
        #expect(body.autoRenewStatus == false)
        #expect(body.bid == "com.twigano.fashion")
        #expect(body.autoRenewStatusChangeDate == Date(timeIntervalSince1970: 1_606_293_002))
        #expect(body.unifiedReceipt?.latestReceiptInfo?.count == 54)
        #expect(body.unifiedReceipt?.pendingRenewalInfo?.first?.originalTransactionId == "1000000723811158")
        #expect((body.unifiedReceipt?.latestReceipt?.count ?? 0) > 30_000)
        #expect(!body.description.contains("********"))
    }

    @Test("an unknown notification type decodes")
    func unknownType() throws {
        let body = try JSONDecoder().decode(
            NotificationV1Body.self, from: Data(#"{"notification_type":"BRAND_NEW","password":"x"}"#.utf8))
        #expect(body.notificationType == .unknown("BRAND_NEW"))
        #expect(!body.description.contains("\"x\""))
    }
}
