import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// A task cancelled in the middle of a transaction (a client gone, a background loop stopped) ends it whole or not
/// at all, and the database takes the next transaction: on SQLite a cancelled task's statements are skipped, so a
/// rollback that is skipped too would leave one connection's transaction open and refuse every later write.
@Suite struct TransactionCancellationTests {
    @Test("cancelled between two inserts: both or neither are stored, and the next transaction commits")
    func cancelledMidway() async throws {
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            let database = store.database
            let task = Task {
                try await database.withTransaction { tx in
                    try await tx.query(
                        "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?)", [.text("p1:first"), .text("p1:u")])
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await tx.query(
                        "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?)", [.text("p1:second"), .text("p1:u")])
                }
            }
            _ = await task.result
            let stored = try await database.read(
                "SELECT count(*) AS n FROM aliases WHERE alias IN ('p1:first', 'p1:second')", []
            ).first?["n"]?.int
            #expect(stored == 0 || stored == 2, "\(backend): \(stored ?? -1) of the two inserts")
            try await database.withTransaction { tx in
                try await tx.query(
                    "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?)", [.text("p1:third"), .text("p1:u")])
            }
            let third = try await database.read("SELECT count(*) AS n FROM aliases WHERE alias = 'p1:third'", [])
            #expect(third.first?["n"]?.int == 1, "\(backend): the next transaction committed")
            try await store.close()
        }
    }
}
