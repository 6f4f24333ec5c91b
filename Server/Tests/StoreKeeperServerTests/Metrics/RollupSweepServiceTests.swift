import Foundation
import Logging
import StoreKeeperStorage
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The server's sweep: after its first wait, rounds delete the rollup rows at 0 and leave every other row.
@Suite struct RollupSweepServiceTests {
    @Test("rows at 0 are deleted by the server's rounds; a row holding a value stays")
    func sweeps() async throws {
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend, rollupRules: ProceedsRules()) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            try await store.database.withTransaction { tx in
                for (day, value) in [(1, 0), (2, 0), (3, 5_000_000)] {
                    try await tx.query(
                        "INSERT INTO metric_rollups (project, metric, day, product, storefront, environment, offer_type, series, col, value) VALUES ('p', 'revenue', ?, '', '', 'Sandbox', '', '', 0, ?)",
                        [.integer(Int64(day)), .integer(Int64(value))])
                }
            }
            func rows() async throws -> [Int64] {
                try await store.database.read("SELECT value FROM metric_rollups ORDER BY day", []).compactMap {
                    $0["value"]?.int
                }
            }
            let sweep = RollupSweep(
                store: store, interval: .milliseconds(20), batch: 1, logger: Logger(label: "rollup-sweep-test"))
            let running = Task { try await sweep.run() }
            let deadline = Date().addingTimeInterval(10)
            while try await rows() != [5_000_000], Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            running.cancel()
            _ = await running.result
            #expect(try await rows() == [5_000_000], "\(backend)")
            try await store.close()
        }
    }
}
