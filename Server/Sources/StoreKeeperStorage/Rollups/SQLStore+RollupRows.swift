import Foundation
import SubscriptionMetrics

/// Adding to a project's rollup rows.
extension SQLStore {
    static let rollupColumns = "project, metric, day, product, storefront, environment, offer_type, series, col, value"
    static let rollupConflict =
        " ON CONFLICT (project, metric, day, product, storefront, environment, offer_type, series, col) DO UPDATE SET value = metric_rollups.value + excluded.value"

    /// The statement adding `rows` to the rollups, in key order (project, then ``RollupKey``'s order).
    static func rollupStatement(_ rows: [(key: ProjectRollupKey, value: Int64)]) -> SQLBatchStatement {
        let batch = SQLRowSet(
            "r",
            columns: [
                "project", "metric", "day", "product", "storefront", "environment", "offer_type", "series", "col",
                "value",
            ],
            rows: rows.map { scoped, value in
                let key = scoped.key
                return [
                    .text(scoped.project), .text(key.metric.rawValue), .integer(Int64(key.day)), .text(key.product),
                    .text(key.storefront), .text(key.environment), .text(key.offerType), .text(key.series),
                    .integer(Int64(key.column.rawValue)), .integer(value),
                ]
            })
        return SQLBatchStatement(
            over: batch,
            "INSERT INTO metric_rollups (\(rollupColumns)) SELECT \(rollupColumns) FROM r WHERE true" + rollupConflict)
    }
}

/// A rollup key under its project: how a write's differences for several projects are gathered and ordered.
struct ProjectRollupKey: Hashable, Comparable {
    /// The project id.
    var project: String
    /// The row within the project.
    var key: RollupKey

    static func < (lhs: ProjectRollupKey, rhs: ProjectRollupKey) -> Bool {
        lhs.project != rhs.project ? lhs.project < rhs.project : lhs.key < rhs.key
    }
}
