import Foundation
import SubscriptionMetrics

/// Adding to a project's rollup rows.
extension SQLStore {
    static let rollupColumns = "project, metric, day, product, storefront, environment, offer_type, series, col, value"
    static let rollupConflict =
        " ON CONFLICT (project, metric, day, product, storefront, environment, offer_type, series, col) DO UPDATE SET value = metric_rollups.value + excluded.value"

    /// Adds `rows` to the rollups, in key order (project, then ``RollupKey``'s order).
    /// On PostgreSQL with `customers`, their rows are stored by the same statement (SQLite: give none).
    static func addRollups(
        _ tx: any SQLTransaction, _ rows: [(key: ProjectRollupKey, value: Int64)], customers: [RollupCustomerRow] = []
    ) async throws {
        guard !rows.isEmpty else { return }
        if tx.dialect.bindsArrays {
            let keys = rows.map(\.key.key)
            let withCustomers = customers.isEmpty ? "" : "WITH customers AS (\(rollupCustomerInsert) RETURNING 1) "
            try await tx.query(
                withCustomers
                    + "INSERT INTO metric_rollups (\(rollupColumns)) SELECT * FROM unnest(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    + rollupConflict,
                (customers.isEmpty ? [] : rollupCustomerBinds(customers)) + [
                    .texts(rows.map(\.key.project)), .texts(keys.map(\.metric.rawValue)),
                    .integers(keys.map { Int64($0.day) }), .texts(keys.map(\.product)), .texts(keys.map(\.storefront)),
                    .texts(keys.map(\.environment)), .texts(keys.map(\.offerType)), .texts(keys.map(\.series)),
                    .integers(keys.map { Int64($0.column.rawValue) }), .integers(rows.map(\.value)),
                ])
            return
        }
        // SQLite: up to 90 rows a statement (900 bound values).
        for start in stride(from: 0, to: rows.count, by: 90) {
            let chunk = rows[start..<min(rows.count, start + 90)]
            var binds: [SQLValue] = []
            for (scoped, value) in chunk {
                let key = scoped.key
                binds += [
                    .text(scoped.project), .text(key.metric.rawValue), .integer(Int64(key.day)), .text(key.product),
                    .text(key.storefront), .text(key.environment), .text(key.offerType), .text(key.series),
                    .integer(Int64(key.column.rawValue)), .integer(value),
                ]
            }
            try await tx.query(
                "INSERT INTO metric_rollups (\(rollupColumns)) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                    + rollupConflict, binds)
        }
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
