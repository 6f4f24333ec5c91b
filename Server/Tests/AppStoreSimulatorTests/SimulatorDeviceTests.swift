import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// What a device sees: the customer's transactions signed as StoreKit 2 hands them out, each unfinished until
/// the app finishes it; renewals arrive unfinished; finishing survives a restart.
@Suite struct SimulatorDeviceTests {
    @Test("a purchase and its renewal are unfinished on the device until finished; the JWS verifies")
    func unfinishedUntilFinished() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "dev")
        var device = try await h.simulator.deviceTransactions(bundleID: h.bundleID, customerID: "dev")
        #expect(device.map(\.transaction.transactionID) == [bought.transactionID])
        #expect(device.allSatisfy { !$0.finished })
        let verified = try await h.verifier.verifyTransaction(device[0].signedTransaction)
        #expect(verified.transactionId == bought.transactionID)

        try await h.simulator.finishOnDevice(transactionID: bought.transactionID)
        try await h.simulator.finishOnDevice(transactionID: bought.transactionID)  // twice is harmless
        await h.advance(months: 1.01)
        device = try await h.simulator.deviceTransactions(bundleID: h.bundleID, customerID: "dev")
        #expect(device.count == 2)
        #expect(device.map(\.finished) == [true, false])
        #expect(try await h.simulator.deviceTransactions(bundleID: h.bundleID, customerID: "nobody").isEmpty)

        let restored = try await SimulatorWorldTests.restarted(from: await h.simulator.world())
        let after = try await restored.deviceTransactions(bundleID: h.bundleID, customerID: "dev")
        #expect(after.map(\.finished) == [true, false])
    }

    @Test("an unknown app or transaction is a named not-found error")
    func unknown() async throws {
        let h = try await SimulatorHarness()
        await #expect(throws: SimulatorError.self) {
            try await h.simulator.deviceTransactions(bundleID: "com.example.none", customerID: "dev")
        }
        await #expect(throws: SimulatorError.self) { try await h.simulator.finishOnDevice(transactionID: "404") }
    }
}
