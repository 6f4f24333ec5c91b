import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Extend Subscription Renewal Dates for All Active Subscribers, as Apple reports it.
@Suite struct SimulatorMassExtensionTests {
    @Test("the active subscriber is extended, the one in billing retry fails, and SUMMARY counts both")
    func massExtension() async throws {
        let h = try await SimulatorHarness()
        let active = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "active")
        let retrying = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "retrying")
        try await h.simulator.failNextRenewal(originalTransactionID: retrying.originalTransactionID)
        await h.advance(months: 1.01)
        #expect(await h.simulator.subscription(retrying.originalTransactionID)?.status != .active)
        let before = try #require(await h.simulator.subscription(active.originalTransactionID)?.periodEnd)
        let request = AppStoreSimulator.MassExtensionRequest(
            extendByDays: 3, extendReasonCode: 1, requestIdentifier: "mass-1", productID: "premium.monthly")
        #expect(try await h.simulator.massExtendRenewalDate(bundleID: h.bundleID, request: request) == "mass-1")
        let after = try #require(await h.simulator.subscription(active.originalTransactionID)?.periodEnd)
        #expect(after > before)
        let last = Array(try await h.notifications().suffix(3))
        #expect(last.map(\.0) == ["RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "RENEWAL_EXTENSION"])
        #expect(last.map(\.1) == [nil, "FAILURE", "SUMMARY"])
        let status = try await h.simulator.massExtensionStatus(
            bundleID: h.bundleID, productID: "premium.monthly", requestIdentifier: "mass-1")
        #expect(status.complete && status.succeededCount == 1 && status.failedCount == 1)
        // The status survives a restart of the simulator.
        let restored = AppStoreSimulator(pki: SimulatorHarness.sharedPKI, clock: ManualClock(start: Date()))
        try await restored.restore(await h.simulator.world())
        #expect(
            try await restored.massExtensionStatus(
                bundleID: h.bundleID, productID: "premium.monthly", requestIdentifier: "mass-1") == status)
    }

    @Test("an unknown request is 4040009; a request without days, reason, identifier or product is 4000000")
    func errors() async throws {
        let h = try await SimulatorHarness()
        await #expect(throws: AppStoreAPIError.self) {
            try await h.simulator.massExtensionStatus(bundleID: h.bundleID, productID: "p", requestIdentifier: "none")
        }
        for request in [
            AppStoreSimulator.MassExtensionRequest(
                extendByDays: 91, extendReasonCode: 1, requestIdentifier: "r", productID: "premium.monthly"),
            .init(extendByDays: 3, extendReasonCode: nil, requestIdentifier: "r", productID: "premium.monthly"),
            .init(extendByDays: 3, extendReasonCode: 1, requestIdentifier: nil, productID: "premium.monthly"),
            .init(extendByDays: 3, extendReasonCode: 1, requestIdentifier: "r", productID: nil),
        ] {
            do {
                _ = try await h.simulator.massExtendRenewalDate(bundleID: h.bundleID, request: request)
                Issue.record("accepted \(request)")
            } catch {
                #expect(error.errorCode == 4_000_000)
            }
        }
    }
}
