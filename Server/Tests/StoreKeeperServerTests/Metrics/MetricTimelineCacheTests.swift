import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestSupport
import Testing

@testable import StoreKeeperServer
@testable import SubscriptionMetrics

/// When metric queries may use kept timelines: only while every change is heard, and only within the budget.
@Suite struct MetricTimelineCacheTests {
    @Test("kept only while the change feed is live; an interruption forgets everything")
    func followsLiveness() async throws {
        let store = try #require(try await TestDatabases.makeStore("sqlite"))
        let project = try ProjectScope("com.example.cache")
        let changes = SubscriberChanges(liveFromStart: false)
        let cache = MetricTimelineCache(changes: changes, budget: 1 << 20)
        #expect(try await cache.timelines(in: project, store: store) == nil, "not live: the caller reads")
        changes.publish(.live)
        #expect(try await cache.timelines(in: project, store: store)?.isEmpty == true)
        #expect(cache.state.withLock { $0.projects[project.id] != nil })
        #expect(try await cache.timelines(in: project, store: store)?.isEmpty == true)
        #expect(cache.usage.hits == 1 && cache.usage.misses == 2, "not live, then built: misses; then kept: a hit")
        changes.publish(.interrupted)
        #expect(cache.state.withLock { $0.projects.isEmpty })
        #expect(try await cache.timelines(in: project, store: store) == nil)
        #expect(cache.usage.misses == 3)
        try await store.close()
    }

    @Test("a change marks its subscriber for the next query; past the change memory everything is forgotten")
    func marksChanges() async throws {
        let store = try #require(try await TestDatabases.makeStore("sqlite"))
        let project = try ProjectScope("com.example.cache")
        let changes = SubscriberChanges(liveFromStart: true)
        let cache = MetricTimelineCache(changes: changes, budget: 1 << 20, changeMemory: 3)
        _ = try await cache.timelines(in: project, store: store)
        changes.publish(.changed([project.key("gone")]))
        #expect(cache.state.withLock { $0.changed } == [project.key("gone")])
        // The next query reads the marked subscriber (no longer stored: nothing kept for it) and clears the mark.
        #expect(try await cache.timelines(in: project, store: store)?.isEmpty == true)
        #expect(cache.state.withLock { $0.changed.isEmpty })
        changes.publish(.changed((0..<4).map { project.key("u\($0)") }))
        #expect(cache.state.withLock { $0.projects.isEmpty && $0.changed.isEmpty })
        try await store.close()
    }

    @Test("a project past the budget is not kept, and says so")
    func oversized() async throws {
        let store = try #require(try await TestDatabases.makeStore("sqlite"))
        let project = try ProjectScope("com.example.cache")
        _ = try await store.apply(
            EvidenceWrite(
                project: project, bundleID: "com.example.cache", appUserID: "u1", kind: "test", rawBody: "{}",
                evidence: Self.evidence("o1"), originalTransactionIDs: ["o1"], cause: .client,
                eventType: "transaction_posted"),
            policy: .transfer, now: Date())
        let cache = MetricTimelineCache(changes: SubscriberChanges(liveFromStart: true), budget: 10)
        #expect(try await cache.timelines(in: project, store: store) == nil, "too large: the caller reads")
        #expect(cache.isOversized(project))
        #expect(cache.usage.bytes == 0)
        #expect(cache.usage.entries == 0 && cache.usage.misses == 1)
        let roomy = MetricTimelineCache(changes: SubscriberChanges(liveFromStart: true), budget: 1 << 20)
        #expect(try await roomy.timelines(in: project, store: store)?.count == 1)
        #expect(!roomy.isOversized(project) && roomy.usage.bytes > 0)
        #expect(roomy.usage.entries == 1 && roomy.usage.bytes > 0 && roomy.usage.budget == 1 << 20)
        roomy.forget(project)
        #expect(roomy.usage.entries == 0 && roomy.usage.evictions == 1, "forgetting a project counts its subscribers")
        try await store.close()
    }

    static func evidence(_ original: String) -> EvidenceSet {
        var transaction = Transaction(
            transactionID: original, originalTransactionID: original, productID: "p", source: .signedData)
        transaction.kind = .autoRenewable
        transaction.purchaseDate = Date(timeIntervalSince1970: 1_767_225_600)
        transaction.expiresAt = Date(timeIntervalSince1970: 1_767_225_600 + 30 * 86_400)
        transaction.observedAt = transaction.purchaseDate
        var evidence = EvidenceSet()
        evidence.insert(transaction)
        return evidence
    }

    @Test("the estimate grows with periods, so a budget bounds what is kept")
    func cost() {
        let period = SubscriptionPeriod(
            productID: "p", start: Date(), accessEnd: Date(), expiresAt: Date(), refundedAt: nil, refundedShare: 0,
            price: 0, currency: "USD", storefront: nil, environment: "Production", offerType: "none", isTrial: false,
            months: 1)
        let one = SubscriptionTimeline(
            originalTransactionID: "o", periods: [period], endReason: "other", group: nil, graceEnds: [])
        var many = one
        many.periods = Array(repeating: period, count: 240)
        #expect(MetricTimelineCache.cost("k", [many]) - MetricTimelineCache.cost("k", [one]) == 239 * 200)
    }
}
