import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// `RESCIND_CONSENT` as Apple sends it: no `data`, but `appData` with the app and the customer's signed app
/// transaction, which the verifier checks like any nested token.
@Suite struct SimulatorRescindConsentTests {
    @Test("the notification carries appData whose app transaction verifies and names the customer")
    func rescind() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "kid")
        try await h.simulator.rescindConsent(bundleID: h.bundleID, customerID: "kid")
        let record = try #require(await h.simulator.notifications(for: h.bundleID).last)
        #expect(record.notificationType == "RESCIND_CONSENT")
        let verified = try await h.verifier.verifyNotification(record.signedPayload)
        #expect(verified.payload.notificationType == .rescindConsent && verified.payload.data == nil)
        #expect(verified.payload.appData?.bundleId == h.bundleID)
        let direct = try await h.verifier.verifyAppTransaction(
            try await h.simulator.appTransactionInfo(transactionID: bought.transactionID, bundleID: h.bundleID))
        #expect(verified.appTransaction?.appTransactionId == direct.appTransactionId)
        #expect(verified.appTransaction?.appTransactionId != nil)
        await #expect(throws: SimulatorError.self) {
            try await h.simulator.rescindConsent(bundleID: h.bundleID, customerID: "stranger")
        }
    }
}
