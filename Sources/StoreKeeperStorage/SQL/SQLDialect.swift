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

    /// The condition that keeps a feed read behind every transaction still running: rows whose writer is older
    /// than the oldest running transaction (PostgreSQL's snapshot `xmin`); none needed where one writer commits at
    /// a time.
    public var committedHorizon: String {
        self == .postgres ? " AND tx < pg_snapshot_xmin(pg_current_snapshot())" : ""
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
