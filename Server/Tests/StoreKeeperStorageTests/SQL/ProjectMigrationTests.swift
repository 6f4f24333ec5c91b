import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// Migration 5 moves rows written before projects existed into the project of the app that wrote them.
@Suite struct ProjectMigrationTests {
    static let example = try! ProjectScope("example")
    static let other = try! ProjectScope("com.other")

    @Test(
        "subscribers, aliases, subscriptions, events and parked notifications move into their app's project",
        arguments: TestDatabases.backends)
    func migratesIntoProjects(_ backend: String) async throws {
        guard let fresh = try await TestDatabases.makeStore(backend) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        // makeStore migrates fully; start again from an empty database at version 4.
        try await fresh.close()
        guard let store = try await Self.storeAtVersion4(backend) else { return }
        let encoder = EvidenceEncoder()
        let alice = try encoder.encode(StoreConformanceTests.evidence("t1", original: "o1"))
        let bob = try encoder.encode(StoreConformanceTests.evidence("t2", original: "o2"))
        let carol = try encoder.encode(StoreConformanceTests.evidence("t3", original: "o3"))
        let parked = try encoder.encode(StoreConformanceTests.evidence("t9", original: "o9"))
        let time = "1767225600.000"
        _ = try await store.database.withTransaction { tx in
            for (user, bundle, json) in [
                ("alice", "com.example.ios", alice), ("bob", "com.example.mac", bob), ("carol", "com.other", carol),
            ] {
                try await tx.query(
                    "INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    [.text(user), .text(bundle), .text(json), .text(time), .text(time)])
            }
            try await tx.query("INSERT INTO aliases (alias, app_user_id) VALUES ('anon', 'alice')", [])
            for (original, user, bundle) in [
                ("o1", "alice", "com.example.ios"), ("o2", "bob", "com.example.mac"), ("o3", "carol", "com.other"),
            ] {
                try await tx.query(
                    "INSERT INTO ownership (original_transaction_id, app_user_id, bundle_id) VALUES (?, ?, ?)",
                    [.text(original), .text(user), .text(bundle)])
            }
            for user in ["alice", "carol"] {
                try await tx.query(
                    "INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json) VALUES (?, ?, 'transaction_posted', 'client', NULL, NULL, '{}')",
                    [.text(user), .text(time)])
            }
            try await tx.query(
                "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids, pending_json) VALUES ('n9', 'com.other', 'DID_RENEW', 'pending', ?, NULL, 'o9,o10', ?)",
                [.text(time), .text(parked)])
        }
        #expect(
            try await store.migrate(projects: ["com.example.ios": Self.example, "com.example.mac": Self.example])
                == SQLStore.schemaVersion)

        #expect(
            try await store.subscriber("alice", in: Self.example)?.evidence.transactions.map(\.transactionID) == ["t1"])
        #expect(try await store.subscriber("anon", in: Self.example)?.appUserID == "alice")
        #expect(try await store.snapshot("alice", in: Self.example)?.aliases == ["anon"])
        #expect(try await store.subscriber("bob", in: Self.example) != nil)
        #expect(try await store.subscriber("carol", in: Self.other) != nil)
        #expect(try await store.subscriber("alice", in: Self.other) == nil)
        #expect(try await store.subscriber("carol", in: Self.example) == nil)
        #expect(try await store.events("anon", in: Self.example, limit: 10).count == 1)
        #expect(try await store.events("carol", in: Self.other, limit: 10).count == 1)

        // Ownership moved too: a second user of the project restoring o1 takes it from alice.
        var restore = StoreConformanceTests.clientWrite("dave", "t1", original: "o1")
        restore.project = Self.example
        _ = try await store.apply(restore, policy: .transfer, now: StoreConformanceTests.now)
        #expect(try await store.subscriber("alice", in: Self.example)?.evidence.transactions.isEmpty == true)
        // The parked notification waits in its project and applies when o9 arrives there.
        var arrival = StoreConformanceTests.clientWrite("erin", "t8", original: "o9")
        arrival.project = Self.other
        _ = try await store.apply(arrival, policy: .transfer, now: StoreConformanceTests.now)
        #expect(
            try await store.subscriber("erin", in: Self.other)?.evidence.transactions.map(\.transactionID).sorted() == [
                "t8", "t9",
            ])
        try await store.close()
    }

    /// An empty database with migrations 1–4 applied.
    static func storeAtVersion4(_ backend: String) async throws -> SQLStore? {
        let store: SQLStore
        switch backend {
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("v4-\(UUID().uuidString).sqlite")
                .path
            store = SQLStore(database: try await SQLiteStoreDatabase.open(path: path))
        default:
            guard let url = try await TestDatabases.freshPostgresDatabase() else { return nil }
            store = SQLStore(
                database: try PostgresStoreDatabase.connect(url: url), groupCommit: .off)
        }
        #expect(try await store.migrate(projects: [:], through: 4) == 4)
        return store
    }
}
