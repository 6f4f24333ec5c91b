import Foundation
import SubscriptionMetrics

extension SQLStore {
    /// Checks a project's summed rollup rows against its customers, cheaply and whole: a fingerprint is additive
    /// (``MetricRollup/fingerprint(_:)``), so the fingerprint of every row the project holds equals the sum of its
    /// customers' stored fingerprints exactly when the rows are the sum of what the customers contributed. A row
    /// edited by hand, lost, or added twice shows; which row cannot be named (`storekeeper metrics verify` names
    /// it). Rows and customers are read in one snapshot, so a write beside the check is never taken for a
    /// difference; the rows a page at a time, so memory does not grow with the project. Changes
    /// nothing.
    /// - Parameters:
    ///   - project: The project.
    ///   - page: How many rows a statement reads.
    /// - Returns: How many customers and rows were read, and whether they agree.
    /// - Throws: ``StorageError`` when this store keeps no rollups.
    public func auditRollupRows(in project: ProjectScope, page: Int) async throws -> RollupRowsAudit {
        guard rollupRules != nil else { throw StorageError("metric rollups are not kept by this store") }
        let scope = ProjectKeyFilter(column: "app_user_id", project: project)
        let page = max(1, page)
        return try await database.withReadTransaction { tx in
            // Summed as two halves, so no database sum overflows: a fingerprint is its high 32 bits (signed) × 2³²
            // plus its low 32 bits.
            let sums = try await tx.query(
                "SELECT count(*) AS n, CAST(COALESCE(SUM(fingerprint & 4294967295), 0) AS BIGINT) AS low, CAST(COALESCE(SUM(fingerprint >> 32), 0) AS BIGINT) AS high FROM metric_customers WHERE \(scope.sql)",
                scope.binds
            ).first
            let low = UInt64(bitPattern: sums?["low"]?.int ?? 0)
            let high = UInt64(bitPattern: sums?["high"]?.int ?? 0)
            var audit = RollupRowsAudit(customers: sums?["n"]?.int.map(Int.init) ?? 0, rows: 0, agree: false)
            let customers = low &+ (high << 32)
            var rows: UInt64 = 0
            var after: [SQLValue]?
            var unreadable = false
            // A row's key, in the table's key order: what the pages are ordered and resumed by.
            let columns = ["metric", "day", "product", "storefront", "environment", "offer_type", "series", "col"]
            let keyed = columns.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            repeat {
                let resume = after == nil ? "" : " AND (\(keyed)) > (\(placeholders))"
                let found = try await tx.query(
                    "SELECT \(keyed), value FROM metric_rollups WHERE project = ?\(resume) ORDER BY \(keyed) LIMIT ?",
                    [.text(project.id)] + (after ?? []) + [.integer(Int64(page))])
                var keys: [RollupKey: Int64] = [:]
                for row in found {
                    guard let key = Self.storedRollupKey(row), let value = row["value"]?.int else {
                        unreadable = true
                        continue
                    }
                    keys[key, default: 0] &+= value
                }
                rows &+= UInt64(bitPattern: MetricRollup.fingerprint(keys))
                audit.rows += found.count
                after = found.last.map { last in columns.map { last[$0] ?? .null } }
                if found.count < page { after = nil }
            } while after != nil
            audit.agree = !unreadable && rows == customers
            return audit
        }
    }

    /// ``auditRollupRows(in:page:)`` with pages of ``rowsAuditPage`` rows (``RollupStore``'s audit).
    public func auditRollupRows(in project: ProjectScope) async throws -> RollupRowsAudit {
        try await auditRollupRows(in: project, page: Self.rowsAuditPage)
    }

    /// How many rollup rows ``auditRollupRows(in:)`` reads a statement.
    public static let rowsAuditPage = 5_000

    /// A `metric_rollups` row's key; `nil` when its metric or column is not one this server counts.
    static func storedRollupKey(_ row: SQLRow) -> RollupKey? {
        guard let metric = row["metric"]?.string.flatMap(MetricName.init(rawValue:)),
            let day = row["day"]?.int, let number = row["col"]?.int,
            let column = RollupColumn(rawValue: Int(number))
        else { return nil }
        return RollupKey(
            metric: metric, day: Int(day), product: row["product"]?.string ?? "",
            storefront: row["storefront"]?.string ?? "", environment: row["environment"]?.string ?? "",
            offerType: row["offer_type"]?.string ?? "", series: row["series"]?.string ?? "", column: column)
    }
}

/// What ``SQLStore/auditRollupRows(in:page:)`` found.
public struct RollupRowsAudit: Sendable, Hashable {
    /// The project's counted customers.
    public var customers: Int
    /// The project's rollup rows.
    public var rows: Int
    /// Whether the rows are exactly what the customers contributed (by fingerprint).
    public var agree: Bool

    /// A finding.
    public init(customers: Int, rows: Int, agree: Bool) {
        self.customers = customers
        self.rows = rows
        self.agree = agree
    }
}
