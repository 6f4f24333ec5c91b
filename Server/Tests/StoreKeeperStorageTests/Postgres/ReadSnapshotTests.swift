import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// A read transaction sees one snapshot on every backend: what the audit, `metrics verify` and the event feed read
/// in several statements is read as of one instant, whatever commits beside them. On PostgreSQL its default
/// isolation took a snapshot per statement, so a write committed between two statements of one read was seen by
/// the second only.
@Suite struct ReadSnapshotTests {
    @Test("a write committed during a read transaction is not seen by that transaction's later statements")
    func oneSnapshot() async throws {
        // SQLite reads and writes on one connection, one at a time: only PostgreSQL has a write beside a read.
        let backend = "postgres"
        guard let store = try await TestDatabases.makeStore(backend) else {
            #expect(!TestDatabases.postgresRequired, "PostgreSQL is required in CI")
            return
        }
        let count = "SELECT count(*) AS n FROM metric_customers"
        let seen = try await store.database.withReadTransaction { tx in
            let first = try await tx.query(count, []).first?["n"]?.int ?? -1
            // Another pooled connection commits a row while the read is open.
            try await store.database.withTransaction { write in
                try await write.query(
                    "INSERT INTO metric_customers (app_user_id, fingerprint, folded) VALUES (?, ?, ?)",
                    [.text("snapshot-probe"), .integer(1), .text("")])
            }
            let second = try await tx.query(count, []).first?["n"]?.int ?? -1
            return (first, second)
        }
        #expect(seen.0 == 0 && seen.1 == 0, "\(backend): the read saw \(seen.0) then \(seen.1) rows")
        let after = try await store.database.read(count, []).first?["n"]?.int
        #expect(after == 1, "\(backend): the write committed")
        try await store.close()
    }
}
