import AppStoreSimulator
import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// Set App Account Token and Finish Transaction, with Apple's errors.
@Suite struct SimulatorTransactionUpdatesTests {
    @Test("an app account token reaches every transaction of the purchase and its later renewals")
    func appAccountToken() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "token")
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        try await h.simulator.setAppAccountToken(
            originalTransactionID: bought.originalTransactionID, bundleID: h.bundleID, token: token)
        #expect(await h.simulator.transaction(bought.transactionID)?.appAccountToken == token.lowercased())
        await h.advance(months: 1.01)
        let renewal = try #require(await h.simulator.subscription(bought.originalTransactionID)?.latestTransactionID)
        #expect(renewal != bought.transactionID)
        #expect(await h.simulator.transaction(renewal)?.appAccountToken == token.lowercased())
    }

    @Test("a token that is not a UUID is 4000183, a renewal's id 4000187, another app's id 4040010")
    func errors() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "errors")
        await h.advance(months: 1.01)
        let renewal = try #require(await h.simulator.subscription(bought.originalTransactionID)?.latestTransactionID)
        func code(_ id: String, _ bundleID: String, _ token: String?) async -> Int64? {
            do {
                try await h.simulator.setAppAccountToken(originalTransactionID: id, bundleID: bundleID, token: token)
                return nil
            } catch { return error.errorCode }
        }
        #expect(await code(bought.originalTransactionID, h.bundleID, "not-a-uuid") == 4_000_183)
        #expect(await code(bought.originalTransactionID, h.bundleID, nil) == 4_000_183)
        #expect(await code(renewal, h.bundleID, UUID().uuidString) == 4_000_187)
        #expect(await code(bought.originalTransactionID, "com.other.app", UUID().uuidString) == 4_040_010)
        try await h.simulator.finishTransaction(transactionID: renewal, bundleID: h.bundleID)
        await #expect(throws: AppStoreAPIError.self) {
            try await h.simulator.finishTransaction(transactionID: "999", bundleID: h.bundleID)
        }
    }

    @Test("the signed app transaction verifies, and its id is the customer's, the same for each of their purchases")
    func appTransaction() async throws {
        let h = try await SimulatorHarness()
        let first = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "app-tx")
        let second = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "coins.100", customerID: "app-tx")
        let other = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "someone-else")
        func payload(_ id: String) async throws -> [String: Any] {
            let token = try await h.simulator.appTransactionInfo(transactionID: id, bundleID: h.bundleID)
            let verified = try await h.verifier.verify(try CompactJWS(token))
            return try #require(try JSONSerialization.jsonObject(with: Data(verified.payload)) as? [String: Any])
        }
        let a = try await payload(first.transactionID), b = try await payload(second.transactionID)
        let c = try await payload(other.transactionID)
        #expect(a["bundleId"] as? String == h.bundleID && a["receiptType"] as? String == "Sandbox")
        #expect(a["appTransactionId"] as? String == b["appTransactionId"] as? String)
        #expect(a["appTransactionId"] as? String != c["appTransactionId"] as? String)
        #expect((a["originalPurchaseDate"] as? Int64) == (b["originalPurchaseDate"] as? Int64))
    }
}
