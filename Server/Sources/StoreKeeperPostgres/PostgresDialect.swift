public import StoreKeeperStorage

/// PostgreSQL's answers to ``SQLDialect``: other processes write the same database, so writers take advisory
/// locks, re-read under them and lease with `SKIP LOCKED`; a batch of rows is one array bound per column
/// (`unnest`), and statements over batches run as one statement, each a `WITH` part of it, saving round trips.
public struct PostgresDialect: SQLDialect {
    /// The most advisory locks one statement takes (a target list holds at most 1,664 entries).
    static let locksPerStatement = 1_000

    /// PostgreSQL's dialect.
    public init() {}

    /// False: other processes' changes arrive by `LISTEN`.
    public var hearsAllChangesInProcess: Bool { false }

    /// True: a round trip saved on every write.
    public var claimsInOneStatement: Bool { true }

    /// As asked: grouping concurrent writes saves a round trip each.
    public func groupCommit(_ requested: GroupCommit) -> GroupCommit { requested }

    /// `FOR UPDATE`.
    public var rowLock: String { " FOR UPDATE" }

    /// `FOR UPDATE SKIP LOCKED`.
    public var leaseLock: String { " FOR UPDATE SKIP LOCKED" }

    /// `BIGSERIAL PRIMARY KEY`.
    public var autoIncrementKey: String { "BIGSERIAL PRIMARY KEY" }

    /// `json_agg` as text, `[]` over no rows.
    public func jsonArray(of column: String) -> String { "COALESCE(json_agg(\(column)), '[]')::text" }

    /// `json_object_agg` as text (`NULL` over no rows).
    public func jsonObject(key: String, value: String) -> String { "json_object_agg(\(key), \(value))::text" }

    /// `string_agg`.
    public func joined(_ column: String, separator: String) -> String {
        "string_agg(\(column), '\(separator)')"
    }

    /// `pg_try_advisory_xact_lock` on the key's hash.
    public func tryLock(_ key: String) -> String { "pg_try_advisory_xact_lock(hashtext(\(key)))" }

    /// The 64-bit `xid8` of the writing transaction.
    public var writingTransactionColumn: String { "xid8 NOT NULL DEFAULT pg_current_xact_id()" }

    /// A placeholder cast to `xid8`.
    public var writingTransactionParameter: String { "CAST(? AS xid8)" }

    /// The id as text, which PostgreSQL casts (`xid8` takes no `Int64`).
    public func writingTransaction(_ value: UInt64) -> SQLValue { .text(String(value)) }

    /// The oldest transaction still running in this database, or the next transaction id when none is
    /// (`pg_stat_activity`, whose 32-bit ids are widened with the current epoch). Only this database's
    /// transactions count, so a write left open in another database of the server delays nothing.
    public var feedHorizonQuery: String {
        """
        WITH next AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS id)
        SELECT LEAST(
            (SELECT id FROM next),
            (SELECT min(CASE WHEN a.backend_xid::text::bigint <= (n.id & 4294967295)
                    THEN ((n.id >> 32) << 32) | a.backend_xid::text::bigint
                    ELSE (((n.id >> 32) - 1) << 32) | a.backend_xid::text::bigint END)
                FROM pg_stat_activity a, next n
                WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL
                    AND a.pid <> pg_backend_pid())
        )::text AS horizon
        """
    }

    /// The statements: TOAST thresholds and compression are PostgreSQL's.
    public func storageTuning(_ statements: [String]) -> [String] { statements }

    /// The statements: triggers and `NOTIFY` tell the other processes.
    public func changeAnnouncement(_ statements: [String]) -> [String] { statements }

    /// `pg_advisory_xact_lock` on each key's hash, left to right, chunk after chunk.
    public func lock(_ keys: [String], in tx: any SQLTransaction) async throws {
        for start in stride(from: 0, to: keys.count, by: Self.locksPerStatement) {
            let chunk = keys[start..<min(start + Self.locksPerStatement, keys.count)]
            let calls = chunk.map { _ in "pg_advisory_xact_lock(hashtext(?))" }.joined(separator: ", ")
            try await tx.query("SELECT \(calls)", chunk.map(SQLValue.text))
        }
    }

    /// Runs it: another process may have written between the read and the lock.
    public func recheckingAfterLocks(_ recheck: () async throws -> Void) async throws { try await recheck() }

    /// One statement: each batch an `unnest` of its columns' arrays, each statement a `WITH` part.
    public func run(_ statements: [SQLBatchStatement], in tx: any SQLTransaction) async throws {
        let present = statements.filter { !$0.rows.rows.isEmpty }
        guard !present.isEmpty else { return }
        if present.count == 1 {
            _ = try await rows(present[0], in: tx)
            return
        }
        var parts: [String] = []
        var binds: [SQLValue] = []
        var named: Set<String> = []
        for (index, statement) in present.enumerated() {
            if named.insert(statement.rows.name).inserted {
                parts.append(try Self.source(statement.rows, binds: &binds))
            }
            parts.append("s\(index) AS (\(statement.sql))")
            binds += statement.binds
        }
        try await tx.query("WITH " + parts.joined(separator: ", ") + " SELECT 1", binds)
    }

    /// The query after its batch's `unnest`.
    public func rows(_ query: SQLBatchStatement, in tx: any SQLTransaction) async throws -> [SQLRow] {
        guard !query.rows.rows.isEmpty else { return [] }
        var binds: [SQLValue] = []
        let source = try Self.source(query.rows, binds: &binds)
        return try await tx.query("WITH \(source) \(query.sql)", binds + query.binds)
    }

    /// A batch as a `WITH` part, its columns' arrays appended to `binds`.
    /// - Throws: ``StorageError`` when a column mixes texts and integers, or holds a NULL.
    static func source(_ set: SQLRowSet, binds: inout [SQLValue]) throws -> String {
        for index in set.columns.indices {
            let values = set.column(index)
            if case .integer = values.first {
                binds.append(.integers(try values.map { try $0.int ?? { throw mixed(set, index) }() }))
            } else {
                binds.append(.texts(try values.map { try $0.string ?? { throw mixed(set, index) }() }))
            }
        }
        let placeholders = Array(repeating: "?", count: set.columns.count).joined(separator: ", ")
        return "\(set.name)(\(set.columns.joined(separator: ", "))) AS (SELECT * FROM unnest(\(placeholders)))"
    }

    static func mixed(_ set: SQLRowSet, _ index: Int) -> StorageError {
        StorageError("the batch \(set.name)'s column \(set.columns[index]) mixes texts, integers or NULLs")
    }

    /// `= ANY` of one array.
    public func select(_ select: String, where column: String, in keys: [String], tx: any SQLTransaction)
        async throws -> [SQLRow]
    {
        guard !keys.isEmpty else { return [] }
        return try await tx.query("\(select) WHERE \(column) = ANY(?)", [.texts(keys)])
    }

    /// By `ctid`, the rows taken `FOR UPDATE SKIP LOCKED`, the condition checked again under the lock.
    public func deleteSome(from table: String, where condition: String, limit: Int64, tx: any SQLTransaction)
        async throws -> Int
    {
        try await tx.query(
            "DELETE FROM \(table) WHERE ctid IN (SELECT ctid FROM \(table) WHERE \(condition) LIMIT ? FOR UPDATE SKIP LOCKED) AND \(condition) RETURNING 1",
            [.integer(limit)]
        ).count
    }

    /// `= ANY` of one array.
    public func delete(from table: String, where column: String, in keys: [String], tx: any SQLTransaction)
        async throws
    {
        guard !keys.isEmpty else { return }
        try await tx.query("DELETE FROM \(table) WHERE \(column) = ANY(?)", [.texts(keys)])
    }

    /// One statement: each endpoint's due deliveries through a `LATERAL` join, limited by its room.
    public func dueDeliveries(_ tx: any SQLTransaction, now time: String, limit: Int, perEndpoint: Int) async throws
        -> [Int64]
    {
        try await tx.query(
            """
            SELECT c.id FROM webhook_endpoints w CROSS JOIN LATERAL (
                SELECT x.id, x.next_attempt_at FROM webhook_deliveries x
                WHERE x.endpoint_id = w.id AND x.status = 'pending' AND x.next_attempt_at <= ?
                    AND (x.lease_until IS NULL OR x.lease_until <= ?)
                ORDER BY x.next_attempt_at, x.id
                LIMIT GREATEST(0, ? - (SELECT count(*) FROM webhook_deliveries b WHERE b.endpoint_id = w.id
                    AND b.status = 'pending' AND b.lease_until IS NOT NULL AND b.lease_until > ?))
            ) c ORDER BY c.next_attempt_at, c.id LIMIT ?
            """,
            [.text(time), .text(time), .integer(Int64(perEndpoint)), .text(time), .integer(Int64(limit))]
        ).compactMap { $0["id"]?.int }.sorted()
    }
}
