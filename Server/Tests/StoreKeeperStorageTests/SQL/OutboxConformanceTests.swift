import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// Announces with the engine and ``ChangeDetector``, with ids and bodies a test can predict.
private struct PlainAnnouncer: ChangeAnnouncer {
    func announce(_ change: SubscriberChange) throws -> Announcement {
        let engine = SubscriptionEngine()
        let found = ChangeDetector.changes(
            from: change.announced, to: engine.evaluate(change.evidence, at: change.now),
            transferredIn: change.transferredIn)
        let events = found.changes.map {
            OutboxEvent(
                id: "\(change.appUserID)/\($0.kind.rawValue)/\($0.transactionID ?? "")", type: $0.kind.rawValue,
                body: #"{"type":"\#($0.kind.rawValue)","cause":"\#(change.cause.rawValue)"}"#)
        }
        return Announcement(
            announced: found.announced, events: change.listening ? events : [],
            dueAt: engine.nextChange(change.evidence, after: change.now))
    }
}

/// The outbox on every write executor: each write's announced events commit with its state change, once, and go
/// to each endpoint that wants their type; leases keep a delivery with one worker at a time.
@Suite struct OutboxConformanceTests {
    static let now = StoreConformanceTests.now
    static let project = StoreConformanceTests.project

    /// Runs `body` on a fresh announcing store of every executor and expects the same dump from each.
    func onEveryExecutor(_ body: (SQLStore) async throws -> Void) async throws {
        var dumps: [(String, String)] = []
        for executor in TestDatabases.executors {
            guard let store = try await TestDatabases.makeStore(executor, announcer: PlainAnnouncer()) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL is required here but none is configured") }
                continue
            }
            try await body(store)
            dumps.append((executor, try await store.dump()))
            try await store.close()
        }
        for (executor, dump) in dumps.dropFirst() where dump != dumps[0].1 {
            Issue.record("\(executor) left other rows than \(dumps[0].0)")
        }
    }

    static func endpoint(_ id: String, types: [String] = []) -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            id: id, projectID: project.id, url: "http://127.0.0.1:9/\(id)", eventTypes: types, secret: "whsec_\(id)",
            createdAt: now)
    }

    func deliveries(_ store: SQLStore, endpoint: String? = nil, status: DeliveryStatus? = nil)
        async throws -> [WebhookDeliveryRecord]
    {
        try await store.webhooks.webhookDeliveries(
            projectID: Self.project.id, endpointID: endpoint, appUserKey: nil, status: status, limit: 100)
    }

    @Test("a purchase and a renewal are announced once each, to every endpoint that wants their type")
    func announcedOnce() async throws {
        try await onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_all"))
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_renewals", types: ["renewal"]))
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("alice", "t1", original: "o1"), policy: .transfer, now: Self.now)
            let renewal = StoreConformanceTests.notification("n-1", "t2", original: "o1")
            let later = Self.now.addingTimeInterval(60)
            _ = try await store.apply(renewal, policy: .transfer, now: later)
            #expect(try await store.apply(renewal, policy: .transfer, now: later) == .duplicate)
            let all = try await deliveries(store, endpoint: "wh_all")
            #expect(all.map(\.eventType).sorted() == ["initial_purchase", "renewal"])
            #expect(all.allSatisfy { $0.status == .pending && $0.appUserID == "alice" && $0.attempts == 0 })
            #expect(try await deliveries(store, endpoint: "wh_renewals").map(\.eventID) == ["alice/renewal/t2"])
            let byUser = try await store.webhooks.webhookDeliveries(
                projectID: Self.project.id, endpointID: nil, appUserKey: Self.project.key("alice"), status: nil,
                limit: 100)
            #expect(byUser.count == 3)
        }
    }

    @Test("without an endpoint, changes are remembered but no event is stored, and none is sent later")
    func nobodyListening() async throws {
        try await onEveryExecutor { store in
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("bob", "t1", original: "o1"), policy: .transfer, now: Self.now)
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_late"))
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("bob", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(try await deliveries(store).isEmpty, "the purchase was announced before anybody listened")
            let dump = try await store.dump()
            #expect(dump.contains("# announced\napp_user_id=text(\"com.example:bob\") | due_at=text("))
        }
    }

    @Test("a delivery is leased to one worker until its lease ends, and each attempt is recorded")
    func leases() async throws {
        try await onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_1"))
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("carol", "t1", original: "o1"), policy: .transfer, now: Self.now)
            let lease = Self.now.addingTimeInterval(60)
            let taken = try await store.webhooks.leaseDeliveries(now: Self.now, leaseUntil: lease, limit: 10)
            #expect(taken.map(\.eventID) == ["carol/initial_purchase/t1"])
            #expect(taken.first?.secret == "whsec_wh_1" && taken.first?.url == "http://127.0.0.1:9/wh_1")
            #expect(try await store.webhooks.leaseDeliveries(now: Self.now, leaseUntil: lease, limit: 10).isEmpty)
            // The worker died: after its lease another takes the delivery.
            let again = try await store.webhooks.leaseDeliveries(now: lease, leaseUntil: lease + 60, limit: 10)
            #expect(again.map(\.id) == taken.map(\.id))
            let id = try #require(again.first?.id)
            try await store.webhooks.recordAttempts(
                [.init(deliveryID: id, outcome: .retry(at: lease + 600), result: "HTTP 500")], now: lease)
            #expect(
                try await store.webhooks.leaseDeliveries(now: lease + 599, leaseUntil: lease + 700, limit: 10).isEmpty)
            #expect(
                try await store.webhooks.leaseDeliveries(now: lease + 600, leaseUntil: lease + 700, limit: 10).count
                    == 1)
            try await store.webhooks.recordAttempts(
                [.init(deliveryID: id, outcome: .failed, result: "HTTP 500")], now: lease + 600)
            let failed = try await deliveries(store, status: .failed)
            #expect(failed.map(\.attempts) == [2] && failed.first?.lastResult == "HTTP 500")
            #expect(try await store.webhooks.redeliver(deliveryID: id, projectID: Self.project.id, now: lease + 700))
            #expect(
                !(try await store.webhooks.redeliver(deliveryID: id, projectID: "another-project", now: lease + 700)))
            let retaken = try await store.webhooks.leaseDeliveries(now: lease + 700, leaseUntil: lease + 800, limit: 10)
            #expect(retaken.map(\.attempts) == [2])
            try await store.webhooks.recordAttempts(
                [.init(deliveryID: id, outcome: .delivered, result: "HTTP 200")], now: lease + 701)
            #expect(try await deliveries(store, status: .delivered).map(\.id) == [id])
            #expect(
                try await store.webhooks.leaseDeliveries(now: lease + 9_999, leaseUntil: lease + 99_999, limit: 10)
                    .isEmpty)
        }
    }

    @Test("a round's attempts are recorded together, each with its own outcome")
    func attemptsTogether() async throws {
        try await onEveryExecutor { store in
            for id in ["wh_1", "wh_2", "wh_3"] { try await store.webhooks.createWebhookEndpoint(Self.endpoint(id)) }
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("fay", "t1", original: "o1"), policy: .transfer, now: Self.now)
            let taken = try await store.webhooks.leaseDeliveries(now: Self.now, leaseUntil: Self.now + 60, limit: 10)
            #expect(taken.count == 3)
            let ids = taken.map(\.id)
            try await store.webhooks.recordAttempts(
                [
                    .init(deliveryID: ids[0], outcome: .delivered, result: "HTTP 200"),
                    .init(deliveryID: ids[1], outcome: .delivered, result: "HTTP 204"),
                    .init(deliveryID: ids[2], outcome: .retry(at: Self.now + 30), result: "HTTP 503"),
                ], now: Self.now + 1)
            let delivered = try await deliveries(store, status: .delivered)
            #expect(Set(delivered.map(\.id)) == [ids[0], ids[1]])
            #expect(Set(delivered.compactMap(\.lastResult)) == ["HTTP 200", "HTTP 204"])
            let pending = try await deliveries(store, status: .pending)
            #expect(pending.map(\.id) == [ids[2]] && pending.first?.attempts == 1)
            #expect(
                try await store.webhooks.leaseDeliveries(now: Self.now + 29, leaseUntil: Self.now + 90, limit: 10)
                    .isEmpty)
            #expect(
                try await store.webhooks.leaseDeliveries(now: Self.now + 30, leaseUntil: Self.now + 90, limit: 10).count
                    == 1)
        }
    }

    @Test("one endpoint's backlog leaves room for the others: at most perEndpoint of it are leased at once")
    func leasesCappedPerEndpoint() async throws {
        try await onEveryExecutor { store in
            for id in ["wh_busy", "wh_calm"] { try await store.webhooks.createWebhookEndpoint(Self.endpoint(id)) }
            func enqueue(_ endpoint: String, _ index: Int, at offset: TimeInterval, type: String = "renewal")
                async throws
            {
                try await store.webhooks.enqueue(
                    OutboxEvent(id: "\(endpoint)-\(index)", type: type, body: "{}"), endpointID: endpoint,
                    projectID: Self.project.id, appUserKey: Self.project.key("u\(index)"), now: Self.now + offset)
            }
            // The busy endpoint's ten events are all older than the calm one's two.
            for index in 0..<10 { try await enqueue("wh_busy", index, at: Double(index)) }
            for index in 0..<2 { try await enqueue("wh_calm", index, at: 100 + Double(index)) }
            let now = Self.now + 200
            let first = try await store.webhooks.leaseDeliveries(
                now: now, leaseUntil: now + 60, limit: 6, perEndpoint: 3)
            #expect(first.map(\.eventID) == ["wh_busy-0", "wh_busy-1", "wh_busy-2", "wh_calm-0", "wh_calm-1"])
            #expect(first.map(\.endpointID) == ["wh_busy", "wh_busy", "wh_busy", "wh_calm", "wh_calm"])
            #expect(
                try await store.webhooks.leaseDeliveries(now: now, leaseUntil: now + 60, limit: 6, perEndpoint: 3)
                    .isEmpty,
                "the busy endpoint has three in flight already")
            // One ends delivered, one is postponed (its receiver did not answer another): two places free up.
            try await store.webhooks.recordAttempts(
                [
                    .init(deliveryID: first[0].id, outcome: .delivered, result: "HTTP 200"),
                    .init(deliveryID: first[1].id, outcome: .postponed(until: now + 30), result: ""),
                ], now: now + 1)
            let second = try await store.webhooks.leaseDeliveries(
                now: now + 1, leaseUntil: now + 61, limit: 6, perEndpoint: 3)
            #expect(second.map(\.eventID) == ["wh_busy-3", "wh_busy-4"], "the postponed one is not due yet")
            let postponed = try #require(
                try await deliveries(store, endpoint: "wh_busy", status: .pending).first { $0.id == first[1].id })
            #expect(postponed.attempts == 0 && postponed.lastResult == nil && postponed.lastAttemptAt == nil)
            #expect(postponed.nextAttemptAt == now + 30)
            // Another worker's lease ended (it died): its deliveries count no more and are taken again.
            let later = try await store.webhooks.leaseDeliveries(
                now: now + 62, leaseUntil: now + 120, limit: 3, perEndpoint: 3)
            #expect(later.map(\.eventID) == ["wh_busy-2", "wh_busy-3", "wh_busy-4"], "oldest due first")
        }
    }

    @Test("test events are counted per endpoint since an instant (the test rate limit)")
    func testEventsCounted() async throws {
        try await onEveryExecutor { store in
            for id in ["wh_1", "wh_2"] { try await store.webhooks.createWebhookEndpoint(Self.endpoint(id)) }
            for (index, (endpoint, offset, type)) in [
                ("wh_1", 0.0, "test"), ("wh_1", 30, "test"), ("wh_1", 59, "test"), ("wh_1", 59, "renewal"),
                ("wh_2", 59, "test"),
            ].enumerated() {
                try await store.webhooks.enqueue(
                    OutboxEvent(id: "e\(index)", type: type, body: "{}"), endpointID: endpoint,
                    projectID: Self.project.id, appUserKey: Self.project.key("storekeeper_test"),
                    now: Self.now + offset)
            }
            #expect(try await store.webhooks.testEventCount(endpointID: "wh_1", since: Self.now) == 3)
            #expect(try await store.webhooks.testEventCount(endpointID: "wh_1", since: Self.now + 1) == 2)
            #expect(try await store.webhooks.testEventCount(endpointID: "wh_2", since: Self.now) == 1)
            #expect(try await store.webhooks.testEventCount(endpointID: "wh_3", since: Self.now) == 0)
        }
    }

    @Test("an alias merge keeps what both ids announced: nothing is announced again")
    func aliasMerge() async throws {
        try await onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_1"))
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("device", "t1", original: "o1"), policy: .transfer, now: Self.now)
            try await store.alias(
                "device", to: "account", in: Self.project, bundleID: "com.example", now: Self.now)
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("account", "t1", original: "o1"), policy: .transfer, now: Self.now)
            let events = try await deliveries(store).map(\.eventID)
            #expect(events == ["device/initial_purchase/t1"])
            #expect(try await deliveries(store).map(\.appUserID) == ["account"])
        }
    }

    @Test("removing an endpoint drops its pending deliveries; another project's endpoint is not found")
    func removal() async throws {
        try await onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_1"))
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("dan", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(!(try await store.webhooks.deleteWebhookEndpoint(id: "wh_1", projectID: "another-project")))
            #expect(try await store.webhooks.deleteWebhookEndpoint(id: "wh_1", projectID: Self.project.id))
            #expect(try await store.webhooks.webhookEndpoints(projectID: Self.project.id).isEmpty)
            #expect(
                try await store.webhooks.leaseDeliveries(now: Self.now, leaseUntil: Self.now + 60, limit: 10).isEmpty)
        }
    }

    @Test("configured endpoints follow the file: added, updated in place, removed with their pending deliveries")
    func configuredEndpoints() async throws {
        try await onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(Self.endpoint("wh_api"))
            try await store.webhooks.configureWebhookEndpoints([Self.endpoint("cfg_a"), Self.endpoint("cfg_b")])
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("erin", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(try await deliveries(store, status: .pending).count == 3)
            // The next start: cfg_b left the file, cfg_a changed its URL and secret; created_at stays.
            var changed = Self.endpoint("cfg_a", types: ["renewal"])
            changed.url = "https://hooks.example/new"
            changed.secret = "whsec_rotated"
            changed.createdAt = Self.now + 3_600
            try await store.webhooks.configureWebhookEndpoints([changed])
            let endpoints = try await store.webhooks.webhookEndpoints(projectID: Self.project.id)
            #expect(endpoints.map(\.id).sorted() == ["cfg_a", "wh_api"], "an API endpoint is left alone")
            let kept = try #require(endpoints.first { $0.id == "cfg_a" })
            #expect(kept.url == changed.url && kept.secret == "whsec_rotated" && kept.eventTypes == ["renewal"])
            #expect(kept.createdAt == Self.now)
            #expect(try await deliveries(store, endpoint: "cfg_b", status: .pending).isEmpty)
            #expect(try await deliveries(store, status: .pending).count == 2)
        }
    }
}

/// The clock's changes: announced when the due instant passes, once, with cause `clock`.
@Suite struct ClockAnnouncementTests {
    @Test("a period that ends without a renewal is announced as an expiration when its end passes, once")
    func expiryByClock() async throws {
        try await OutboxConformanceTests().onEveryExecutor { store in
            try await store.webhooks.createWebhookEndpoint(OutboxConformanceTests.endpoint("wh_1"))
            let now = OutboxConformanceTests.now
            _ = try await store.apply(
                StoreConformanceTests.clientWrite("erin", "t1", original: "o1"), policy: .transfer, now: now)
            #expect(try await store.announceDue(now: now.addingTimeInterval(3_599), limit: 10) == 0)
            #expect(try await store.announceDue(now: now.addingTimeInterval(3_601), limit: 10) == 1)
            #expect(try await store.announceDue(now: now.addingTimeInterval(3_700), limit: 10) == 0, "nothing is due")
            let events = try await OutboxConformanceTests().deliveries(store).map(\.eventID).sorted()
            #expect(events == ["erin/expiration/t1", "erin/initial_purchase/t1"])
            let taken = try await store.webhooks.leaseDeliveries(
                now: now.addingTimeInterval(4_000), leaseUntil: now + 5_000, limit: 10)
            #expect(taken.contains { $0.body.contains(#""cause":"clock""#) })
        }
    }
}
