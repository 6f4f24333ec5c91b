import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// The project's event feed (`GET /v1/events`): every event of the project once, in commit order, resumable by
/// cursor — even while writes commit out of id order around the reader — and nothing of another project.
@Suite struct EventFeedTests {
    static let now = StoreConformanceTests.now

    /// Reads the feed from `cursor` to its current end, `limit` at a time.
    static func drain(_ store: SQLStore, _ project: ProjectScope, from cursor: EventFeedCursor?, limit: Int)
        async throws -> (ids: [Int64], cursor: EventFeedCursor?)
    {
        var ids: [Int64] = []
        var cursor = cursor
        while true {
            let page = try await store.eventFeed(in: project, after: cursor, limit: limit)
            ids += page.events.map(\.id)
            cursor = page.next
            if page.events.count < limit { return (ids, cursor) }
        }
    }

    @Test("a reader polling during 240 concurrent writes gets each of its project's events exactly once")
    func concurrentWriters() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            do {
                try await Self.concurrentWriters(store, executor)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }

    static func concurrentWriters(_ store: SQLStore, _ executor: String) async throws {
        let mine = try ProjectScope("com.feed"), theirs = try ProjectScope("com.other")
        let finished = Finished()
        let readsDone = Mutex(0)
        // The writes go in two halves, the second only after the reader read again, so the reader surely polls
        // while writes commit (on a loaded machine all 240 once committed before its second poll).
        func readersRead(_ count: Int) async throws {
            while readsDone.withLock({ $0 }) < count { try await Task.sleep(for: .milliseconds(1)) }
        }
        let writing = Task {
            defer { finished.set() }
            for half in [0..<120, 120..<240] {
                try await readersRead(half.lowerBound == 0 ? 1 : readsDone.withLock { $0 } + 1)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for number in half {
                        group.addTask {
                            let project = number % 6 == 0 ? theirs : mine
                            _ = try await store.apply(
                                AppTransactionLookupTests.write(
                                    project, user: "u\(number)", transaction: "\(number + 1)", appTransactionID: nil),
                                policy: .transfer, now: Self.now)
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        var seen: [Int64] = []
        var cursor: EventFeedCursor?
        var reads = 0
        while !finished.isSet {
            let page = try await Self.drain(store, mine, from: cursor, limit: 7)
            seen += page.ids
            cursor = page.cursor
            reads += 1
            readsDone.withLock { $0 = reads }
            try await Task.sleep(for: .milliseconds(1))
        }
        try await writing.value
        seen += try await Self.drain(store, mine, from: cursor, limit: 7).ids
        var expected: [Int64] = []
        for number in 0..<240 where number % 6 != 0 {
            expected += try await store.events("u\(number)", in: mine, limit: 10).map(\.id)
        }
        #expect(expected.count == 200 && reads > 1, "\(executor): \(reads) reads while writing")
        #expect(seen.count == Set(seen).count, "\(executor): an event came twice")
        #expect(Set(seen) == Set(expected), "\(executor): \(Set(expected).subtracting(seen).count) missed")
        let others = try await Self.drain(store, theirs, from: nil, limit: 50).ids
        #expect(others.count == 40 && Set(others).isDisjoint(with: seen), "\(executor)")
    }

    @Test("PostgreSQL: an event written later but committed first waits behind a write still in progress")
    func heldWrite() async throws {
        for executor in TestDatabases.executors where executor != "sqlite" {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            do {
                try await Self.heldWrite(store, executor)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }

    /// A transaction takes an event id and holds it uncommitted while a later write commits: a reader must not
    /// pass the later event before the held one commits, or its cursor would skip the held event for good.
    static func heldWrite(_ store: SQLStore, _ executor: String) async throws {
        let mine = try ProjectScope("com.feed")
        let (held, releasing) = try await Self.openWrite(store, mine)
        _ = try await store.apply(
            AppTransactionLookupTests.write(mine, user: "later", transaction: "9", appTransactionID: nil),
            policy: .transfer, now: Self.now)
        let before = try await Self.drain(store, mine, from: nil, limit: 10)
        #expect(before.ids.isEmpty, "\(executor): the later event was handed out while the held one could come")
        releasing.yield()
        releasing.finish()
        try await held.value
        let after = try await Self.drain(store, mine, from: before.cursor, limit: 10)
        let all = before.ids + after.ids
        #expect(all.count == 2 && Set(all).count == 2, "\(executor): \(all)")
    }

    @Test("PostgreSQL: a write left open in another database of the server delays nothing")
    func openElsewhere() async throws {
        guard let ours = try await StoreConformanceTests.store("postgres") else { return }
        guard let elsewhere = try await StoreConformanceTests.store("postgres") else {
            try await ours.close()
            return
        }
        let mine = try ProjectScope("com.feed")
        let (held, releasing) = try await Self.openWrite(elsewhere, mine)
        _ = try await ours.apply(
            AppTransactionLookupTests.write(mine, user: "now", transaction: "9", appTransactionID: nil),
            policy: .transfer, now: Self.now)
        let page = try await Self.drain(ours, mine, from: nil, limit: 10)
        #expect(page.ids.count == 1, "the other database's open write held the feed back")
        releasing.finish()
        try await held.value
        try await ours.close()
        try await elsewhere.close()
    }

    /// A transaction on `store` that inserts an event of `project` and stays open until the continuation
    /// finishes; returned once the event is inserted.
    static func openWrite(_ store: SQLStore, _ project: ProjectScope) async throws -> (
        task: Task<Void, any Error>, release: AsyncStream<Void>.Continuation
    ) {
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let (inserted, inserting) = AsyncStream.makeStream(of: Void.self)
        let held = Task {
            try await store.database.withTransaction { tx in
                _ = try await tx.query(
                    "INSERT INTO events (app_user_id, created_at, type, cause, detail_json) VALUES (?, ?, 'held', 'client', '{}')",
                    [.text(project.key("held")), .text("2026-01-01T00:00:00.000Z")])
                inserting.yield()
                for await _ in release { break }
            }
        }
        for await _ in inserted { break }
        return (held, releasing)
    }

    /// A flag a writing task raises when it is done.
    final class Finished: Sendable {
        let flag = Mutex(false)
        var isSet: Bool { flag.withLock { $0 } }
        func set() { flag.withLock { $0 = true } }
    }
}
