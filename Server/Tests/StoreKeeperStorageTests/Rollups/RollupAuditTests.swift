import Foundation
import StoreKeeperStorage
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

/// The audit a running server does: a sample of a project's customers checked against their evidence. It finds a
/// customer whose counted contribution drifted, names it, changes nothing, and its random draws reach every
/// customer whatever their ids look like.
@Suite struct RollupAuditTests {
    typealias Histories = MetricRollupStoreTests

    static let project = Histories.Spec.project

    /// The app user ids in `table` (`subscribers`: every customer; `metric_customers`: those the rollups count,
    /// a customer left without a subscription is not), in key order.
    static func users(_ store: SQLStore, in table: String) async throws -> [String] {
        try await store.database.read("SELECT app_user_id FROM \(table) ORDER BY app_user_id", []).compactMap {
            $0["app_user_id"]?.string.map(ProjectScope.value(ofKey:))
        }
    }

    /// What the rollups hold: every rollup row and every customer's counted fingerprint.
    static func counted(_ store: SQLStore) async throws -> [String] {
        let rows = try await store.database.read(
            "SELECT metric, day, product, storefront, environment, offer_type, series, col, value FROM metric_rollups ORDER BY metric, day, product, storefront, environment, offer_type, series, col",
            [])
        let customers = try await store.database.read(
            "SELECT app_user_id, fingerprint FROM metric_customers ORDER BY app_user_id", [])
        return (rows + customers).map { row in
            row.keys.sorted().map { "\($0)=\(row[$0].map { "\($0)" } ?? "nil")" }.joined(separator: " ")
        }
    }

    @Test("a customer whose counted fingerprint drifted is named; the others match; nothing is changed")
    func findsDrift() async throws {
        var random = MetricSnapshotGenerator(state: 21)
        let histories = (0..<10).map { Histories.history($0, random: &random) }
        for backend in TestDatabases.backends {
            guard let store = try await RollupSweepTests.store(backend) else { continue }
            try await Histories.write(histories, into: store)
            let customers = try await Self.users(store, in: "subscribers")
            let counted = try await Self.users(store, in: "metric_customers")
            #expect(counted.count >= 10 && customers.count >= counted.count, "\(backend)")
            let clean = try await store.auditRollups(in: Self.project, after: "", limit: 1_000)
            #expect(clean == RollupAudit(checked: customers.count, differing: []), "\(backend)")

            let drifted = counted[3]
            try await store.database.withTransaction { tx in
                try await tx.query(
                    "UPDATE metric_customers SET fingerprint = fingerprint + 1 WHERE app_user_id = ?",
                    [.text(Self.project.key(drifted))])
            }
            let before = try await Self.counted(store)
            let found = try await store.auditRollups(in: Self.project, after: "", limit: 1_000)
            #expect(found == RollupAudit(checked: customers.count, differing: [drifted]), "\(backend)")
            #expect(try await Self.counted(store) == before, "\(backend): the audit changes nothing")

            // A window from a point of the key order wraps to the first customers, each checked once.
            let window = try await store.auditRollups(
                in: Self.project, after: customers[customers.count - 2], limit: 5)
            #expect(window.checked == 5, "\(backend)")
            let windowed = [customers.last!] + customers.prefix(4)
            #expect(
                window.differing == (windowed.contains(drifted) ? [drifted] : []),
                "\(backend): the last customer, then the first four")
            let whole = try await store.auditRollups(in: Self.project, after: customers[5], limit: 1_000)
            #expect(whole.checked == customers.count, "\(backend): never a customer twice")
            try await store.close()
        }
    }

    @Test(
        "the summed rows agree with every customer's fingerprint, read a page or all at once; a row edited, lost, added or unreadable shows; nothing is changed"
    )
    func summedRows() async throws {
        var random = MetricSnapshotGenerator(state: 9)
        let histories = (0..<10).map { Histories.history($0, random: &random) }
        for backend in TestDatabases.backends {
            guard let store = try await RollupSweepTests.store(backend) else { continue }
            try await Histories.write(histories, into: store)
            let customers = try await Self.users(store, in: "metric_customers")
            let rows =
                try await store.database.read(
                    "SELECT count(*) AS n FROM metric_rollups WHERE project = ?", [.text(Self.project.id)]
                ).first?["n"]?.int ?? 0
            #expect(rows > 50, "\(backend): \(rows) rows")
            let whole = RollupRowsAudit(customers: customers.count, rows: Int(rows), agree: true)
            #expect(try await store.auditRollupRows(in: Self.project) == whole, "\(backend)")
            #expect(try await store.auditRollupRows(in: Self.project, page: 7) == whole, "\(backend): in pages of 7")

            let before = try await Self.counted(store)
            let columns = ["metric", "day", "product", "storefront", "environment", "offer_type", "series", "col"]
            let target = try #require(
                try await store.database.read(
                    "SELECT \(columns.joined(separator: ", ")), value FROM metric_rollups WHERE value <> 0 ORDER BY \(columns.joined(separator: ", ")) LIMIT 1",
                    []
                ).first)
            let matching = "project = ? AND " + columns.map { "\($0) = ?" }.joined(separator: " AND ")
            let binds = [SQLValue.text(Self.project.id)] + columns.map { target[$0] ?? .null }
            let insert =
                "INSERT INTO metric_rollups (project, \(columns.joined(separator: ", ")), value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            // The row again on a day nobody counted (1970-01-02).
            var elsewhere = binds
            elsewhere[2] = .integer(1)
            // The row again under a metric this server does not count.
            var unknown = binds
            unknown[1] = .text("bogus_metric")
            typealias Statement = (sql: String, binds: [SQLValue])
            let tampered: [(what: String, change: Statement, undo: Statement)] = [
                (
                    "a value edited", ("UPDATE metric_rollups SET value = value + 1 WHERE \(matching)", binds),
                    ("UPDATE metric_rollups SET value = value - 1 WHERE \(matching)", binds)
                ),
                (
                    "a row lost", ("DELETE FROM metric_rollups WHERE \(matching)", binds),
                    (insert, binds + [target["value"] ?? .null])
                ),
                (
                    "a row no customer contributed", (insert, elsewhere + [target["value"] ?? .null]),
                    ("DELETE FROM metric_rollups WHERE \(matching)", elsewhere)
                ),
                (
                    "a row of an unknown metric", (insert, unknown + [target["value"] ?? .null]),
                    ("DELETE FROM metric_rollups WHERE \(matching)", unknown)
                ),
            ]
            for (what, change, undo) in tampered {
                try await store.database.withTransaction { tx in try await tx.query(change.sql, change.binds) }
                let found = try await store.auditRollupRows(in: Self.project, page: 7)
                #expect(!found.agree, "\(backend): \(what) shows")
                try await store.database.withTransaction { tx in try await tx.query(undo.sql, undo.binds) }
                #expect(try await store.auditRollupRows(in: Self.project) == whole, "\(backend): \(what) undone")
            }
            #expect(try await Self.counted(store) == before, "\(backend): the audit changes nothing")
            try await store.close()
        }
    }

    @Test("random draws reach every customer, ids sharing a long prefix included")
    func randomDraws() async throws {
        var random = MetricSnapshotGenerator(state: 5)
        let histories = (0..<6).map { Histories.history($0, random: &random) }
        for backend in TestDatabases.backends {
            guard let store = try await RollupSweepTests.store(backend) else { continue }
            try await Histories.write(histories, into: store)
            let customers = try await Self.users(store, in: "metric_customers")
            // Every customer drifted: a sample of one names the one it drew.
            try await store.database.withTransaction { tx in
                try await tx.query("UPDATE metric_customers SET fingerprint = fingerprint + 1", [])
            }
            var drawn = Set<String>()
            for _ in 0..<(40 * customers.count) where drawn.count < customers.count {
                let found = try await store.auditRollups(in: Self.project, after: nil, limit: 1)
                #expect(found.checked == 1, "\(backend)")
                drawn.formUnion(found.differing)
            }
            #expect(drawn == Set(customers), "\(backend)")
            try await store.close()
        }
    }
}
