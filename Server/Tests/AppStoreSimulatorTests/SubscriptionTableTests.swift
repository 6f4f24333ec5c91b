import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Catching up with the clock pops only what is due, from a queue every write keeps current: a date moved later
/// is not acted on at the old one, and a restored world is queued again.
@Suite struct SubscriptionTableTests {
    func renewals(_ h: SimulatorHarness) async -> Int {
        await h.simulator.notifications(for: h.bundleID).filter { $0.notificationType == "DID_RENEW" }.count
    }

    @Test("a renewal date extended after it was queued renews at the new date, not the old one")
    func extendedLater() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.annual", customerID: "x")
        _ = try await h.simulator.extendRenewalDate(originalTransactionID: bought.originalTransactionID, days: 30)
        await h.advance(months: 12.2)  // past the old end, before the extended one
        #expect(await renewals(h) == 0)
        #expect(await h.simulator.subscription(bought.originalTransactionID)?.status == .active)
        await h.advance(months: 1)
        #expect(await renewals(h) == 1)
    }

    @Test("a restored world renews on time: its subscriptions are queued again")
    func restored() async throws {
        let h = try await SimulatorHarness()
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.annual", customerID: "y")
        let clock = ManualClock(start: h.clock.now())
        let simulator = AppStoreSimulator(pki: SimulatorHarness.sharedPKI, clock: clock)
        try await simulator.restore(await h.simulator.world())
        clock.advance(by: 13 * h.month)
        await simulator.advance()
        let renewed = await simulator.notifications(for: h.bundleID).filter { $0.notificationType == "DID_RENEW" }
        #expect(renewed.count == 1)
        #expect((await simulator.subscription(bought.originalTransactionID)?.renewalCount ?? 0) == 1)
    }
}
