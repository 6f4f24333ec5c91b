import Foundation
import StoreKeeperStorage
import Testing

@testable import StoreKeeperServer

/// When an answer may be served without reading the database again.
@Suite struct SubscriberDocumentCacheTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let row = SubscriberSnapshot(
        storageKey: "alice", appUserID: "alice", bundleID: "com.example", evidenceJSON: "{}", aliases: ["anon"],
        createdAt: now)

    func remember(_ cache: SubscriberDocumentCache, key: String = "alice", until: Date? = nil) {
        let mark = cache.readMark
        cache.remember([1, 2, 3], for: Self.row, key: key, readAt: mark, from: Self.now, until: until)
    }

    @Test("with a live feed an answer is reused until its subscriber changes")
    func liveFeed() {
        let changes = SubscriberChanges(liveFromStart: true)
        let cache = SubscriberDocumentCache(changes: changes)
        remember(cache)
        remember(cache, key: "anon")
        #expect(cache.fresh("alice", at: Self.now) == [1, 2, 3])
        #expect(cache.fresh("anon", at: Self.now) == [1, 2, 3])
        #expect(cache.fresh("com.other:alice", at: Self.now) == nil)
        changes.publish(.changed(["bob"]))
        #expect(cache.fresh("alice", at: Self.now) != nil)
        changes.publish(.changed(["alice"]))
        #expect(cache.fresh("alice", at: Self.now) == nil)
        #expect(cache.fresh("anon", at: Self.now) == nil)
    }

    @Test("an answer is not reused past the engine's next change, nor before it was computed")
    func validity() {
        let cache = SubscriberDocumentCache(changes: SubscriberChanges(liveFromStart: true))
        remember(cache, until: Self.now.addingTimeInterval(60))
        #expect(cache.fresh("alice", at: Self.now.addingTimeInterval(59)) != nil)
        #expect(cache.fresh("alice", at: Self.now.addingTimeInterval(60)) == nil)
        #expect(cache.fresh("alice", at: Self.now.addingTimeInterval(-1)) == nil)
    }

    @Test("a row read before a change is published is not trusted after it")
    func readBeforeChange() {
        let changes = SubscriberChanges(liveFromStart: true)
        let cache = SubscriberDocumentCache(changes: changes)
        let mark = cache.readMark
        changes.publish(.changed(["alice"]))  // committed while the old row was being read
        cache.remember([1], for: Self.row, key: "alice", readAt: mark, from: Self.now, until: nil)
        #expect(cache.fresh("alice", at: Self.now) == nil)
    }

    @Test("without a live feed nothing is reused; after an interruption, nothing read before it")
    func liveness() {
        let changes = SubscriberChanges(liveFromStart: false)
        let cache = SubscriberDocumentCache(changes: changes)
        remember(cache)
        #expect(cache.fresh("alice", at: Self.now) == nil)
        changes.publish(.live)
        #expect(cache.fresh("alice", at: Self.now) == nil)
        remember(cache)
        #expect(cache.fresh("alice", at: Self.now) != nil)
        changes.publish(.interrupted)
        #expect(cache.fresh("alice", at: Self.now) == nil)
        changes.publish(.live)
        #expect(cache.fresh("alice", at: Self.now) == nil)
    }

    @Test("a cache made after the feed went live is live")
    func lateObserver() {
        let changes = SubscriberChanges(liveFromStart: false)
        changes.publish(.live)
        let cache = SubscriberDocumentCache(changes: changes)
        remember(cache)
        #expect(cache.fresh("alice", at: Self.now) != nil)
    }

    @Test("bounded by bytes: past the budget the least recently used answers go, one at a time, never all")
    func byteBudget() {
        let cost = SubscriberDocumentCache.cost(
            .init(snapshot: Self.row, readAt: 0, validFrom: Self.now, validUntil: nil, body: [1, 2, 3]), "user-00")
        let cache = SubscriberDocumentCache(changes: SubscriberChanges(liveFromStart: true), budget: cost * 10)
        for index in 0..<10 { remember(cache, key: "user-0\(index)") }
        #expect(cache.fresh("user-00", at: Self.now) != nil)  // read: now the most recent
        for index in 10..<15 { remember(cache, key: "user-\(index)") }
        let usage = cache.usage
        #expect(usage.bytes <= cost * 10 && usage.entries == 10 && usage.evictions == 5)
        #expect(cache.fresh("user-00", at: Self.now) != nil && cache.fresh("user-14", at: Self.now) != nil)
        #expect(cache.fresh("user-01", at: Self.now) == nil && cache.fresh("user-05", at: Self.now) == nil)
        #expect(cache.fresh("user-06", at: Self.now) != nil)
    }
}
