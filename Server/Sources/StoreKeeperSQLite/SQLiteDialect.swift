public import StoreKeeperStorage

/// SQLite's answers to ``SQLDialect``: one process owns the file and one writer commits at a time, so nothing is
/// locked, re-read under a lock or grouped; a batch of rows is bound `VALUES` in chunks, as SQLite takes no
/// arrays.
public struct SQLiteDialect: SQLDialect {
    /// The most values one statement binds: well within SQLite's limit, and a chunk's text stays short.
    static let boundValues = 900

    /// SQLite's dialect.
    public init() {}

    /// True: this process is the file's only writer.
    public var hearsAllChangesInProcess: Bool { true }

    /// False: SQLite's `WITH` holds no writes.
    public var claimsInOneStatement: Bool { false }

    /// Off: an in-process write commits without a round trip to share.
    public func groupCommit(_ requested: GroupCommit) -> GroupCommit { .off }

    /// None: writers are serialised.
    public var rowLock: String { "" }

    /// None: one worker leases at a time.
    public var leaseLock: String { "" }

    /// `INTEGER PRIMARY KEY AUTOINCREMENT`.
    public var autoIncrementKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }

    /// `json_group_array`, which answers `[]` over no rows.
    public func jsonArray(of column: String) -> String { "json_group_array(\(column))" }

    /// `json_group_object`.
    public func jsonObject(key: String, value: String) -> String { "json_group_object(\(key), \(value))" }

    /// `group_concat`.
    public func joined(_ column: String, separator: String) -> String {
        "group_concat(\(column), '\(separator)')"
    }

    /// Always true: no other writer can hold a lock.
    public func tryLock(_ key: String) -> String { "1" }

    /// A constant 0: the single writer commits in id order.
    public var writingTransactionColumn: String { "INTEGER NOT NULL DEFAULT 0" }

    /// A plain placeholder.
    public var writingTransactionParameter: String { "?" }

    /// The id as an integer.
    public func writingTransaction(_ value: UInt64) -> SQLValue { .integer(Int64(clamping: value)) }

    /// Past every event: a committed event is always below the horizon (the column holds 0).
    public var feedHorizonQuery: String { "SELECT '9223372036854775807' AS horizon" }

    /// None: SQLite has no tunable column storage.
    public func storageTuning(_ statements: [String]) -> [String] { [] }

    /// None: the process hears its own changes.
    public func changeAnnouncement(_ statements: [String]) -> [String] { [] }

    /// Nothing to take.
    public func lock(_ keys: [String], in tx: any SQLTransaction) async throws {}

    /// Nothing to re-read: nobody wrote between the read and the lock.
    public func recheckingAfterLocks(_ recheck: () async throws -> Void) async throws {}

    /// Each statement on chunks of its rows, the rows a `VALUES` list named by a `WITH` before the statement.
    public func run(_ statements: [SQLBatchStatement], in tx: any SQLTransaction) async throws {
        for statement in statements { _ = try await rows(statement, in: tx) }
    }

    /// The query on chunks of its rows, their answers together.
    public func rows(_ query: SQLBatchStatement, in tx: any SQLTransaction) async throws -> [SQLRow] {
        let set = query.rows
        guard !set.rows.isEmpty else { return [] }
        let width = max(1, set.columns.count)
        let chunk = max(1, (Self.boundValues - query.binds.count) / width)
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        var answer: [SQLRow] = []
        for start in stride(from: 0, to: set.rows.count, by: chunk) {
            let rows = set.rows[start..<min(set.rows.count, start + chunk)]
            let values = Array(repeating: tuple, count: rows.count).joined(separator: ", ")
            let sql = "WITH \(set.name)(\(set.columns.joined(separator: ", "))) AS (VALUES \(values)) \(query.sql)"
            answer += try await tx.query(sql, rows.flatMap { $0 } + query.binds)
        }
        return answer
    }

    /// `IN` lists of up to 500 keys.
    public func select(_ select: String, where column: String, in keys: [String], tx: any SQLTransaction)
        async throws -> [SQLRow]
    {
        var rows: [SQLRow] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = keys[start..<min(keys.count, start + 500)]
            rows += try await tx.query(
                "\(select) WHERE \(column) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))",
                chunk.map(SQLValue.text))
        }
        return rows
    }

    /// By `rowid`: nobody else holds a row.
    public func deleteSome(from table: String, where condition: String, limit: Int64, tx: any SQLTransaction)
        async throws -> Int
    {
        try await tx.query(
            "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE \(condition) LIMIT ?) RETURNING 1",
            [.integer(limit)]
        ).count
    }

    /// `IN` lists of up to 500 keys.
    public func delete(from table: String, where column: String, in keys: [String], tx: any SQLTransaction)
        async throws
    {
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = keys[start..<min(keys.count, start + 500)]
            try await tx.query(
                "DELETE FROM \(table) WHERE \(column) IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))",
                chunk.map(SQLValue.text))
        }
    }

    /// One statement per endpoint with room (in-process, and SQLite's `LIMIT` cannot name an outer row), after
    /// one that counts each endpoint's leased deliveries.
    public func dueDeliveries(_ tx: any SQLTransaction, now time: String, limit: Int, perEndpoint: Int) async throws
        -> [Int64]
    {
        var leased: [String: Int] = [:]
        for row in try await tx.query(
            """
            SELECT endpoint_id, count(*) AS leased FROM webhook_deliveries
            WHERE status = 'pending' AND lease_until IS NOT NULL AND lease_until > ? GROUP BY endpoint_id
            """, [.text(time)])
        {
            leased[row["endpoint_id"]?.string ?? ""] = Int(row["leased"]?.int ?? 0)
        }
        var due: [(next: String, id: Int64)] = []
        for endpoint in try await tx.query("SELECT id FROM webhook_endpoints", []).compactMap({ $0["id"]?.string }) {
            let room = min(perEndpoint - leased[endpoint, default: 0], limit)
            guard room > 0 else { continue }
            due += try await tx.query(
                """
                SELECT id, next_attempt_at FROM webhook_deliveries
                WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= ?
                    AND (lease_until IS NULL OR lease_until <= ?)
                ORDER BY next_attempt_at, id LIMIT ?
                """, [.text(endpoint), .text(time), .text(time), .integer(Int64(room))]
            ).compactMap { row in row["id"]?.int.map { (row["next_attempt_at"]?.string ?? "", $0) } }
        }
        return due.sorted { ($0.next, $0.id) < ($1.next, $1.id) }.prefix(limit).map(\.id).sorted()
    }
}
