import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperStorage
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// Committed changes of subscriber rows are published: at once to this process, and on PostgreSQL to every
/// other process's store through LISTEN/NOTIFY.
@Suite struct SubscriberChangesTests {
    final class Recorder: Sendable {
        let events = Mutex<[SubscriberChanges.Event]>([])
        init(_ changes: SubscriberChanges) { changes.observe { event in self.events.withLock { $0.append(event) } } }
        var changed: Set<String> {
            Set(
                events.withLock { $0 }.flatMap { event -> [String] in
                    if case .changed(let users) = event { users.map(ProjectScope.value(ofKey:)) } else { [] }
                })
        }
    }

    @Test("a write publishes the subscribers it changed once committed; a duplicate publishes nothing")
    func localChanges() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("changes-\(UUID().uuidString).sqlite")
            .path
        let store = try await SQLStore.sqlite(path: path)
        #expect(store.changes.liveFromStart)
        let recorder = Recorder(store.changes)
        _ = try await store.apply(
            StoreConformanceTests.clientWrite("alice", "t1", original: "o1"), policy: .transfer,
            now: StoreConformanceTests.now)
        #expect(recorder.changed == ["alice"])
        let renewal = StoreConformanceTests.notification("n-1", "t2", original: "o1")
        _ = try await store.apply(renewal, policy: .transfer, now: StoreConformanceTests.now)
        let count = recorder.events.withLock { $0.count }
        #expect(try await store.apply(renewal, policy: .transfer, now: StoreConformanceTests.now) == .duplicate)
        #expect(recorder.events.withLock { $0.count } == count)
        try await store.alias(
            "anon-1", to: "alice", in: StoreConformanceTests.project, bundleID: "com.example",
            now: StoreConformanceTests.now)
        _ = try await store.apply(
            StoreConformanceTests.clientWrite("bob", "t3", original: "o3"), policy: .transfer,
            now: StoreConformanceTests.now)
        #expect(recorder.changed == ["alice", "anon-1", "bob"])
        try await store.close()
    }

    @Test("on PostgreSQL another process's store hears each commit, after saying it is live")
    func remoteChanges() async throws {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired {
                Issue.record("PostgreSQL is required here but no server is configured")
            }
            return
        }
        let writer = try await SQLStore.postgres(url: url)
        let reader = try await SQLStore.postgres(url: url)
        #expect(!reader.changes.liveFromStart)
        let recorder = Recorder(reader.changes)
        try await Self.eventually { recorder.events.withLock { $0.contains(.live) } }
        _ = try await writer.apply(
            StoreConformanceTests.clientWrite("carol", "t1", original: "o1"), policy: .transfer,
            now: StoreConformanceTests.now)
        try await Self.eventually { recorder.changed.contains("carol") }
        try await writer.alias(
            "dave", to: "carol", in: StoreConformanceTests.project, bundleID: "com.example",
            now: StoreConformanceTests.now)
        _ = try await writer.apply(
            StoreConformanceTests.clientWrite("erin", "t2", original: "o2"), policy: .transfer,
            now: StoreConformanceTests.now)
        try await Self.eventually { recorder.changed == ["carol", "erin"] }
        try await writer.close()
        try await reader.close()
    }

    /// Waits up to 5 s for `condition`, recording a failure when it never holds.
    static func eventually(_ condition: @Sendable () -> Bool) async throws {
        for _ in 0..<100 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("condition did not hold within 5 s")
    }
}
