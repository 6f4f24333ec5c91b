/// The SQL dialects StoreKeeper speaks, and the one place where they differ: shared storage code asks a dialect
/// what it can do (``bindsArrays``, ``locksRows``…) or how it spells something (``autoIncrementKey``…), and never
/// compares dialects itself (a test reads the storage sources for such comparisons).
public enum SQLDialect: String, Sendable {
    /// SQLite (the embedded default).
    case sqlite
    /// PostgreSQL.
    case postgres

    /// Whether a statement can take a whole array as one bound value (`unnest(?)`, `= ANY(?)`) and use joins
    /// that name an outer row (`LATERAL`), so a batch is one statement; otherwise a batch is one statement per
    /// row or per chunk of bound values.
    public var bindsArrays: Bool { self == .postgres }

    /// Whether other processes write the same database concurrently, so writers take row and advisory locks,
    /// re-check what they read before locking, and lease with `SKIP LOCKED`; SQLite has one writer at a time.
    public var locksRows: Bool { self == .postgres }

    /// Whether this process hears every committed change of a subscriber row itself (one process owns the
    /// file), so the change feed is live from the start; otherwise changes arrive by `LISTEN` once it connects.
    public var hearsAllChangesInProcess: Bool { self == .sqlite }

    /// Whether concurrent writes are grouped into one transaction (worth it over a network round trip).
    public var groupsCommits: Bool { self == .postgres }

    /// The clause that locks the rows a `SELECT` reads until the transaction ends (empty where writers are
    /// serialised anyway).
    public var rowLock: String { locksRows ? " FOR UPDATE" : "" }

    /// The clause that locks the rows a lease takes and skips rows another worker holds.
    public var leaseLock: String { locksRows ? " FOR UPDATE SKIP LOCKED" : "" }

    /// The column type of an auto-incremented 64-bit primary key.
    public var autoIncrementKey: String {
        self == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY"
    }

    /// An aggregate of `column` over the rows as a JSON array text (`[]` when none).
    public func jsonArray(of column: String) -> String {
        self == .sqlite ? "json_group_array(\(column))" : "COALESCE(json_agg(\(column)), '[]')::text"
    }

    /// An aggregate of `column`'s texts joined with `separator` (a SQL string literal's contents).
    public func joined(_ column: String, separator: String) -> String {
        self == .sqlite ? "group_concat(\(column), '\(separator)')" : "string_agg(\(column), '\(separator)')"
    }

    /// The column that records which transaction wrote an event (PostgreSQL's 64-bit `xid8`; a constant 0 on
    /// SQLite, whose single writer commits in id order).
    public var writingTransactionColumn: String {
        self == .postgres ? "xid8 NOT NULL DEFAULT pg_current_xact_id()" : "INTEGER NOT NULL DEFAULT 0"
    }

    /// A bound writing-transaction id, for comparing with that column.
    public var writingTransactionParameter: String { self == .postgres ? "CAST(? AS xid8)" : "?" }

    /// The value to bind for ``writingTransactionParameter`` (text PostgreSQL casts, as `xid8` passes `Int64`).
    public func writingTransaction(_ value: UInt64) -> SQLValue {
        self == .postgres ? .text(String(value)) : .integer(Int64(clamping: value))
    }

    /// The query that finds how far a feed read may go, as one row's `horizon` (text): the oldest transaction
    /// still running in this database, or the next transaction id when none is (PostgreSQL's `pg_stat_activity`,
    /// whose 32-bit ids are widened with the current epoch). Only this database's transactions count, so a write
    /// left open in another database of the server delays nothing. `nil` where one writer commits at a time.
    ///
    /// Run before the feed's own read, in its own statement: a writer below the horizon had then finished, so the
    /// later read sees its events.
    public var feedHorizonQuery: String? {
        guard self == .postgres else { return nil }
        return """
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

    /// The statements given, on a database with tunable column storage (PostgreSQL's TOAST thresholds and
    /// compression), and none elsewhere: a migration step that only tunes storage.
    public func storageTuning(_ statements: [String]) -> [String] { self == .postgres ? statements : [] }

    /// The statements given, on a database that announces committed changes to other processes (PostgreSQL's
    /// triggers and `NOTIFY`), and none where one process owns the file.
    public func changeAnnouncement(_ statements: [String]) -> [String] {
        hearsAllChangesInProcess ? [] : statements
    }
}
