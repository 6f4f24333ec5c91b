import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Catching the simulated world up after a long pause, and handing out deliveries a batch at a time.
@Suite struct SimulatorCatchUpTests {
    @Test("after a pause, every subscription's renewals happen, in time order across subscriptions")
    func catchUp() async throws {
        let h = try await SimulatorHarness(maximumRenewals: 3)
        for (index, customer) in ["u1", "u2", "u3", "u4"].enumerated() {
            _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: customer)
            h.clock.advance(by: h.month * Double(index + 1) / 10)  // purchases spread over the first month
        }
        await h.advance(months: 6)
        let records = await h.simulator.notifications(for: h.bundleID)
        let types = try await h.notifications().map(\.0)
        // Each of four subscriptions: SUBSCRIBED, three renewals, then the cap expires it.
        #expect(types.filter { $0 == "SUBSCRIBED" }.count == 4)
        #expect(types.filter { $0 == "DID_RENEW" }.count == 12)
        #expect(types.filter { $0 == "EXPIRED" }.count == 4)
        let dates = records.map(\.signedDate)
        #expect(dates == dates.sorted(), "notifications are logged in the order their events happened")
    }

    @Test("due notifications come oldest first, at most `limit` at a time")
    func limit() async throws {
        let h = try await SimulatorHarness(notificationURL: "http://127.0.0.1:9/notifications")
        for customer in ["a", "b", "c", "d", "e"] {
            _ = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: customer)
        }
        let all = await h.simulator.dueNotifications()
        #expect(all.count == 5)
        let first = await h.simulator.dueNotifications(limit: 2)
        #expect(first.map(\.notificationUUID) == all.prefix(2).map(\.notificationUUID))
        #expect(await h.simulator.dueNotifications(limit: 0).isEmpty)
        for notification in first {
            await h.simulator.recordAttempt(notificationUUID: notification.notificationUUID, result: "SUCCESS")
        }
        #expect(
            await h.simulator.dueNotifications(limit: 10).map(\.notificationUUID)
                == all.dropFirst(2).map(\.notificationUUID))
    }

    @Test("production renews for as long as the customer pays; only the sandbox stops at its renewal cap")
    func productionHasNoCap() async throws {
        var configuration = AppStoreSimulator.Configuration()
        configuration.environment = "Production"
        configuration.rate = .realTime
        configuration.maximumRenewals = 2
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        let simulator = AppStoreSimulator(configuration: configuration, pki: SimulatorHarness.sharedPKI, clock: clock)
        try await simulator.createApp(SimulatedApp.demo(bundleID: "com.example.production"))
        let bought = try await simulator.purchase(
            bundleID: "com.example.production", productID: "premium.monthly", customerID: "p")
        clock.advance(by: 30 * 86_400 * 5.5)
        await simulator.advance()
        let subscription = try #require(await simulator.subscription(bought.originalTransactionID))
        #expect(subscription.status == .active && subscription.renewalCount == 5)
    }

    @Test("notification history older than Apple's 180 days is forgotten once delivered; what is kept still delivers")
    func historyKeptForAppleDays() async throws {
        var configuration = AppStoreSimulator.Configuration()
        configuration.environment = "Production"
        configuration.rate = .realTime
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        let simulator = AppStoreSimulator(configuration: configuration, pki: SimulatorHarness.sharedPKI, clock: clock)
        try await simulator.createApp(
            SimulatedApp.demo(bundleID: "com.example.history", notificationURL: "http://127.0.0.1:9/n"))
        _ = try await simulator.purchase(bundleID: "com.example.history", productID: "premium.monthly", customerID: "h")
        let day = 86_400.0
        for _ in 0..<12 {
            clock.advance(by: 30 * day)
            for notification in await simulator.dueNotifications() {
                await simulator.recordAttempt(notificationUUID: notification.notificationUUID, result: "SUCCESS")
            }
        }
        _ = try await simulator.purchase(bundleID: "com.example.history", productID: "coins.100", customerID: "h")
        let now = clock.now()
        let kept = await simulator.notifications(for: "com.example.history")
        // 14 notifications were sent over 360 days; those signed more than 180 (and, trimming monthly, at most
        // 210) days ago are gone.
        #expect(kept.count < 14 && kept.count >= 7, "\(kept.count) kept")
        #expect(kept.allSatisfy { now.timeIntervalSince($0.signedDate) <= 210 * day })
        // The newest is still awaiting delivery and delivers by its UUID after the log moved.
        let due = await simulator.dueNotifications()
        #expect(due.count == 1 && due.first?.notificationType == "ONE_TIME_CHARGE")
        await simulator.recordAttempt(notificationUUID: due[0].notificationUUID, result: "SUCCESS")
        #expect(await simulator.deliveryBacklog().scheduled == 0)
        #expect(await simulator.notifications(for: "com.example.history").last?.attempts.map(\.result) == ["SUCCESS"])
    }
}
