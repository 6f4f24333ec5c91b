import Foundation
public import SubscriptionMetrics

/// ``RollupStore`` over SQL: the builds table says which projects' rollups are whole, and a query's rows are summed
/// by the database over the dimensions it does not split by.
extension SQLStore {
    /// Whether this store keeps rollups with every write (it was given ``rollupRules``).
    public var keepsRollups: Bool { rollupRules != nil }

    /// Whether `project`'s rollups were built with the rules this store keeps them with.
    public func rollupsReady(in project: ProjectScope) async throws -> Bool {
        guard let rules = rollupRules else { return false }
        let row = try await database.read(
            "SELECT rules FROM metric_rollup_builds WHERE project = ?", [.text(project.id)]
        ).first
        return row?["rules"]?.string == MetricRollup.buildMark(rules)
    }

    /// Marks `project`'s rollups whole, counted with this store's rules.
    func markRollupsBuilt(_ project: ProjectScope, now: Date = Date()) async throws {
        guard let rules = rollupRules else { return }
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "INSERT INTO metric_rollup_builds (project, rules, built_at) VALUES (?, ?, ?) ON CONFLICT (project) DO UPDATE SET rules = excluded.rules, built_at = excluded.built_at",
                [.text(project.id), .text(MetricRollup.buildMark(rules)), .text(Self.timestamp(now))])
        }
    }

    /// Forgets every project's build: a store that writes without keeping rollups leaves them partial, so they are
    /// built again by the next server that keeps them.
    public func forgetRollupBuilds() async throws {
        _ = try await database.withTransaction { tx in try await tx.query("DELETE FROM metric_rollup_builds", []) }
    }

    /// A query's rows, summed by the database (see ``RollupStore/rollupRows(in:metric:split:environments:fromDay:throughDay:)``).
    public func rollupRows(
        in project: ProjectScope, metric: MetricName, split: MetricSplit?, environments: Set<String>, fromDay: Int,
        throughDay: Int
    ) async throws -> [(key: RollupKey, value: Int64)] {
        let environments = environments.sorted()
        guard !environments.isEmpty else { return [] }
        let column: String? =
            switch split {
            case .product: "product"
            case .storefront: "storefront"
            case .offerType: "offer_type"
            case .environment, .rule, .responseKind, nil: nil
            }
        let grouped = (column.map { [$0] } ?? []) + ["environment", "series", "col"]
        let listed = grouped.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: environments.count).joined(separator: ", ")
        // Only the row variant the query reads (``MetricRollup/collapsedRow(_:metric:split:)``).
        let variant = MetricRollup.rowDimensions.map { dimension -> String in
            guard let collapsed = MetricRollup.collapsedRow(dimension, metric: metric, split: split) else { return "" }
            return " AND \(dimension.rawValue) " + (collapsed ? "= '*'" : "<> '*'")
        }.joined()
        let base: [SQLValue] = [.text(project.id), .text(metric.rawValue)] + environments.map(SQLValue.text)
        // The range day by day, then the snapshot changes before it as one row.
        let inRange = try await database.read(
            "SELECT day, \(listed), CAST(SUM(value) AS BIGINT) AS total FROM metric_rollups WHERE project = ? AND metric = ? AND environment IN (\(placeholders))\(variant) AND day >= ? AND day <= ? GROUP BY day, \(listed)",
            base + [.integer(Int64(fromDay)), .integer(Int64(throughDay))])
        let before = try await database.read(
            "SELECT \(listed), CAST(SUM(value) AS BIGINT) AS total FROM metric_rollups WHERE project = ? AND metric = ? AND environment IN (\(placeholders))\(variant) AND day < ? AND col IN (\(RollupColumn.delta.rawValue), \(RollupColumn.denominatorDelta.rawValue)) GROUP BY \(listed)",
            base + [.integer(Int64(fromDay))])
        func key(_ row: SQLRow, day: Int) -> (key: RollupKey, value: Int64)? {
            guard let columnNumber = row["col"]?.int, let stored = RollupColumn(rawValue: Int(columnNumber)),
                let total = row["total"]?.int, total != 0
            else { return nil }
            let value = column.flatMap { row[$0]?.string } ?? "all"
            let other = metric == .mrrMovement || MetricRollup.collapsed.contains(metric) ? "*" : "all"
            return (
                RollupKey(
                    metric: metric, day: day, product: split == .product ? value : other,
                    storefront: split == .storefront ? value : other, environment: row["environment"]?.string ?? "",
                    offerType: split == .offerType ? value : other, series: row["series"]?.string ?? "",
                    column: stored),
                total
            )
        }
        return inRange.compactMap { key($0, day: Int($0["day"]?.int ?? 0)) }
            + before.compactMap { key($0, day: fromDay - 1) }
    }
}
