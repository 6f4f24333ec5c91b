/// What differs between the databases StoreKeeper speaks, asked by the shared storage code and answered by each
/// adapter (`SQLiteDialect` in `StoreKeeperSQLite`, `PostgresDialect` in `StoreKeeperPostgres`): how a thing is
/// spelled (``autoIncrementKey``, ``jsonArray(of:)``…) and how a batch of rows is written or read (``run(_:in:)``,
/// ``rows(_:in:)``). The shared code states each statement once and never branches on what a database can do
/// (a test reads the storage sources for such branches).
public protocol SQLDialect: Sendable {
    /// Whether this process hears every committed change of a subscriber row itself (one process owns the
    /// file), so the change feed is live from the start; otherwise changes arrive by `LISTEN` once it connects.
    var hearsAllChangesInProcess: Bool { get }

    /// Whether a write's claim (its raw evidence stored, its notification id claimed, its subscriptions' owners
    /// read and a sole owner's row locked) is one statement, `SQLStore.claim`'s last branch on a database: the
    /// statement reads what its own parts wrote, which only PostgreSQL's `WITH` allows.
    var claimsInOneStatement: Bool { get }

    /// The group commit asked for, as this database can take it: concurrent writes grouped into one transaction
    /// where that saves network round trips, off where one in-process writer commits at a time.
    func groupCommit(_ requested: GroupCommit) -> GroupCommit

    /// The clause that locks the rows a `SELECT` reads until the transaction ends (empty where writers are
    /// serialised anyway).
    var rowLock: String { get }

    /// The clause that locks the rows a lease takes and skips rows another worker holds.
    var leaseLock: String { get }

    /// The column type of an auto-incremented 64-bit primary key.
    var autoIncrementKey: String { get }

    /// An aggregate of `column` over the rows as a JSON array text (`[]` when none).
    func jsonArray(of column: String) -> String

    /// An aggregate of the rows' `key` → `value` as a JSON object text (`NULL` or `{}` when none).
    func jsonObject(key: String, value: String) -> String

    /// An aggregate of `column`'s texts joined with `separator` (a SQL string literal's contents).
    func joined(_ column: String, separator: String) -> String

    /// A condition that takes the transaction-long lock named by the text expression `key` without waiting, and
    /// is false when another transaction holds it (true where writers are serialised anyway).
    func tryLock(_ key: String) -> String

    /// The column that records which transaction wrote an event.
    var writingTransactionColumn: String { get }

    /// A bound writing-transaction id, for comparing with that column.
    var writingTransactionParameter: String { get }

    /// The value to bind for ``writingTransactionParameter``.
    func writingTransaction(_ value: UInt64) -> SQLValue

    /// The query that finds how far a feed read may go, as one row's `horizon` (text): the oldest transaction
    /// still running in this database, or the next transaction id when none is (past every event where one
    /// writer commits at a time). Run before the feed's own read, in its own statement: a writer below the
    /// horizon had then finished, so the later read sees its events.
    var feedHorizonQuery: String { get }

    /// The statements given, on a database with tunable column storage, and none elsewhere: a migration step
    /// that only tunes storage.
    func storageTuning(_ statements: [String]) -> [String]

    /// The statements given, on a database that announces committed changes to other processes (triggers and
    /// `NOTIFY`), and none where one process owns the file.
    func changeAnnouncement(_ statements: [String]) -> [String]

    /// Takes the transaction-long locks named by `keys`, in the order given (none where one writer commits at a
    /// time).
    func lock(_ keys: [String], in tx: any SQLTransaction) async throws

    /// Runs `recheck` where another writer may have committed between a read and the lock taken after it, so
    /// what was read must be read again under the lock; skips it where one writer commits at a time.
    func recheckingAfterLocks(_ recheck: () async throws -> Void) async throws

    /// Runs statements over batches of rows, in order, as few statements as the database allows: every
    /// statement's rows and writes become one statement where statements can write beside each other, or each
    /// runs on chunks of its rows. So no statement may depend on an earlier one's writes (on one
    /// database it sees them, on the other not), and a statement over no rows is not run.
    func run(_ statements: [SQLBatchStatement], in tx: any SQLTransaction) async throws

    /// The rows a query over a batch of rows answers, the chunks' answers together where it runs in chunks.
    func rows(_ query: SQLBatchStatement, in tx: any SQLTransaction) async throws -> [SQLRow]

    /// The rows of `select` (a statement without `WHERE`) whose `column` is one of `keys`.
    func select(_ select: String, where column: String, in keys: [String], tx: any SQLTransaction) async throws
        -> [SQLRow]

    /// Deletes up to `limit` rows of `table` that meet `condition`, skipping rows another transaction holds
    /// locked (a row is deleted only while it still meets the condition under its lock).
    /// - Returns: How many rows were deleted.
    func deleteSome(from table: String, where condition: String, limit: Int64, tx: any SQLTransaction) async throws
        -> Int

    /// Deletes the rows of `table` whose `column` is one of `keys`.
    func delete(from table: String, where column: String, in keys: [String], tx: any SQLTransaction) async throws

    /// The ids of up to `limit` due, unleased webhook deliveries at `time`, oldest due first, at most
    /// `perEndpoint` minus those already leased of any one endpoint; ascending. Each endpoint's are read through
    /// the `webhook_deliveries_pending` index, so a backlog costs nothing to skip.
    func dueDeliveries(_ tx: any SQLTransaction, now time: String, limit: Int, perEndpoint: Int) async throws
        -> [Int64]
}
