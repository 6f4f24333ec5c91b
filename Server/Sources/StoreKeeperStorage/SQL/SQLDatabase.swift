/// A database connection or pool that runs SQL with bound parameters (`?` placeholders) inside transactions.
///
/// The two implementations (`StoreKeeperSQLite`, `StoreKeeperPostgres`) are thin adapters; every query and the
/// storage logic live once, in ``SQLStore``, so both databases pass the same conformance suite.
public protocol SQLDatabase: Sendable {
    /// The dialect: how this database spells what differs, and runs batches of rows.
    var dialect: any SQLDialect { get }

    /// Runs `body` in one database transaction: committed when it returns, rolled back when it throws.
    /// - Parameter body: The work.
    /// - Returns: What the work returned.
    func withTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T

    /// Runs read-only `body` on a consistent snapshot without taking write locks.
    /// - Parameter body: The reads.
    /// - Returns: What the reads returned.
    func withReadTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T

    /// Runs one read-only statement on its own, outside any open transaction: it sees committed data only,
    /// and takes no lock that writers wait for.
    /// - Parameters:
    ///   - sql: The statement, with `?` placeholders.
    ///   - binds: The values, in order.
    /// - Returns: The rows.
    func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]

    /// Closes connections.
    func close() async throws
}

/// Statements inside one transaction.
public protocol SQLTransaction: Sendable {
    /// The database's dialect.
    var dialect: any SQLDialect { get }

    /// Runs one statement with bound parameters.
    /// - Parameters:
    ///   - sql: The statement, with `?` placeholders.
    ///   - binds: The values, in order.
    /// - Returns: The rows.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}
