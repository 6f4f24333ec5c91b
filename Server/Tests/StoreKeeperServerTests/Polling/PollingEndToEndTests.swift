import AppStoreSimulator
import AppStoreSimulatorServer
import Crypto
import Foundation
import Hummingbird
import ServiceLifecycle
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// Status polling and reconciliation with the simulator as Apple, its notifications lost: StoreKeeper finds out
/// by itself, through the same write path, and announces each change once.
@Suite struct PollingEndToEndTests {
    static let bundleID = ServerEndToEndTests.bundleID

    /// The e2e app's services on a fresh announcing store of `backend`, the simulator (manual clock, dropping the
    /// app's notifications) as Apple; polls come `afterExpiry` simulated hours after a period ends.
    func withPoller(
        _ backend: String, afterExpiry hours: Double, credentials: Bool = true,
        _ body: @Sendable (SimulatorHarness, SubscriptionPoller, NotificationReconciler, SQLStore) async throws -> Void
    ) async throws {
        let h = try await SimulatorHarness()
        let rate = AppStoreSimulator.Configuration().rate
        var schedule = PollSchedule()
        schedule.afterExpiry = rate.seconds(forHours: hours)
        schedule.jitter = 0
        let key = P256.Signing.PrivateKey()
        var app = SimulatedApp.demo(bundleID: Self.bundleID)
        app.apiPublicKeyPEM = key.publicKey.pemRepresentation
        app.notificationURL = "http://127.0.0.1:9/unreachable"
        try await h.simulator.createApp(app)
        try await h.simulator.setNotificationDelivery(bundleID: Self.bundleID, .drop)
        var configured = ServerEndToEndTests.configuration(app: app, key: key)
        configured.polling.schedule = schedule
        if !credentials {
            configured.apps[0].issuerID = nil
            configured.apps[0].keyID = nil
            configured.apps[0].privateKeyPEM = nil
            configured.apps[0].privateKeyPath = nil
        }
        let configuration = configured
        let announcer = WebhookAnnouncer(
            engine: SubscriptionEngine(configuration: configuration.engine), pollSchedule: schedule)
        guard let store = try await TestDatabases.makeStore(backend, announcer: announcer) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { simulatorBase in
            let built = try await SimulatorAsApple.build(
                configuration, store: store, harness: h, simulatorBase: simulatorBase)
            let services = built.services.flatMap { ($0 as? GatedService)?.services ?? [$0] }
            let poller = try #require(services.compactMap { $0 as? SubscriptionPoller }.first)
            let reconciler = try #require(services.compactMap { $0 as? NotificationReconciler }.first)
            try await body(h, poller, reconciler, store)
        }
        try await store.close()
    }

    /// Buys the monthly plan for `customer` and posts the receipt; returns the original transaction id.
    static func subscribe(_ h: SimulatorHarness, _ poller: SubscriptionPoller, _ customer: String) async throws
        -> String
    {
        let bought = try await h.simulator.purchase(
            bundleID: bundleID, productID: "premium.monthly", customerID: customer)
        let receipt = try await h.simulator.receipt(bundleID: bundleID, customerID: customer)
        _ = try await poller.service.postReceipt(
            appUserID: customer, receipt: receipt, deviceID: nil, bundleID: bundleID, personal: true)
        return bought.originalTransactionID
    }

    static func expiry(_ poller: SubscriptionPoller, _ customer: String) async throws -> Date? {
        let record = try await poller.service.store.subscriber(customer, in: ServerEndToEndTests.project)
        return poller.service.engine.evaluate(record?.evidence ?? EvidenceSet(), at: poller.service.now())
            .subscriptions.first?.expiresAt
    }

    @Test(
        "a renewal whose notification is lost is seen through polling within an hour of the old expiry, announced once",
        arguments: TestDatabases.backends)
    func renewalByPolling(_ backend: String) async throws {
        try await withPoller(backend, afterExpiry: 0.25) { h, poller, _, store in
            try await store.webhooks.createWebhookEndpoint(
                WebhookEndpointRecord(
                    id: "wh_1", projectID: ServerEndToEndTests.project.id, url: "http://127.0.0.1:9/hook",
                    eventTypes: [], secret: "whsec_1", createdAt: h.clock.now()))
            _ = try await Self.subscribe(h, poller, "alice")
            let firstExpiry = try #require(try await Self.expiry(poller, "alice"))
            #expect(try await poller.pollDue() == 0, "nothing is due before the period ends")

            let rate = AppStoreSimulator.Configuration().rate
            h.clock.advance(by: firstExpiry.timeIntervalSince(h.clock.now()) + rate.seconds(forHours: 0.5))
            #expect(try await poller.pollDue() == 1)
            let renewedExpiry = try #require(try await Self.expiry(poller, "alice"))
            #expect(renewedExpiry > firstExpiry, "seen as renewed before the old expiry plus one simulated hour")
            #expect(h.clock.now() < firstExpiry.addingTimeInterval(rate.seconds(forHours: 1)))
            let events = try await store.events("alice", in: ServerEndToEndTests.project, limit: 100)
            #expect(events.contains { $0.cause == .poll && $0.type == "polled" })
            #expect(try await poller.pollDue() == 0, "the next poll is after the new period ends")

            // The lost DID_RENEW turns up after all: stored, and the renewal is not announced again.
            let renewal = try #require(
                await h.simulator.notifications(for: Self.bundleID).last { $0.notificationType == "DID_RENEW" })
            #expect(renewal.attempts.map(\.result) == ["NO_RESPONSE"])
            _ = try await poller.service.ingestV2(renewal.signedPayload)
            let announced = try await store.webhooks.webhookDeliveries(
                projectID: ServerEndToEndTests.project.id, endpointID: "wh_1", appUserKey: nil, status: nil, limit: 100)
            #expect(announced.map(\.eventType).sorted() == ["initial_purchase", "renewal"])
        }
    }

    @Test(
        "without API credentials, polling asks verifyReceipt with the latest receipt, and the one Apple answers next",
        arguments: TestDatabases.backends)
    func renewalByReceipt(_ backend: String) async throws {
        try await withPoller(backend, afterExpiry: 0.25, credentials: false) { h, poller, _, store in
            #expect(poller.service.apps[Self.bundleID]?.credentials == nil)
            _ = try await Self.subscribe(h, poller, "erin")
            let rate = AppStoreSimulator.Configuration().rate
            var expiry = try #require(try await Self.expiry(poller, "erin"))
            for period in 1...2 {
                h.clock.advance(by: expiry.timeIntervalSince(h.clock.now()) + rate.seconds(forHours: 0.5))
                #expect(try await poller.pollDue() == 1)
                let renewed = try #require(try await Self.expiry(poller, "erin"))
                #expect(renewed > expiry, "period \(period) renewed, found through verifyReceipt")
                expiry = renewed
            }
            let events = try await store.events("erin", in: ServerEndToEndTests.project, limit: 100)
            #expect(events.filter { $0.cause == .poll }.count == 2)
        }
    }

    @Test("a refund whose notification is lost is applied by reconciliation, once", arguments: TestDatabases.backends)
    func refundByReconciliation(_ backend: String) async throws {
        try await withPoller(backend, afterExpiry: 0.25) { h, poller, reconciler, store in
            let original = try await Self.subscribe(h, poller, "bob")
            try await h.simulator.refund(transactionID: original, reason: 1)
            let credentials = try #require(poller.service.apps[Self.bundleID]?.credentials)
            let start = h.clock.now().addingTimeInterval(-86_400)
            // Every notification of the window was lost: the purchase's and the refund's.
            #expect(
                try await reconciler.reconcile(Self.bundleID, credentials: credentials, from: start, to: h.clock.now())
                    == 2)
            let record = try await store.subscriber("bob", in: ServerEndToEndTests.project)
            let state = poller.service.engine.evaluate(record?.evidence ?? EvidenceSet(), at: h.clock.now())
            #expect(state.subscriptions.first?.status == .revoked)
            #expect(
                try await reconciler.reconcile(Self.bundleID, credentials: credentials, from: start, to: h.clock.now())
                    == 0, "a second run finds nothing new")
            let events = try await store.events("bob", in: ServerEndToEndTests.project, limit: 100)
            #expect(events.filter { $0.type == "REFUND" }.map(\.cause) == [.reconciliation])
        }
    }
}
