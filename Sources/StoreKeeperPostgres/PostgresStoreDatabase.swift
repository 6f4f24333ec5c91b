import Foundation
import Logging
import PostgresNIO
public import StoreKeeperStorage
public import SubscriptionEngine
import Synchronization

/// PostgreSQL for ``SQLStore``: a PostgresNIO connection pool; every unit of work is one transaction on one
/// pooled connection, so several server replicas can share the database.
public final class PostgresStoreDatabase: SQLDatabase {
    /// PostgreSQL.
    public let dialect = SQLDialect.postgres
    let client: PostgresClient
    let runner: Task<Void, Never>
    let logger: Logger
    /// Where a dedicated connection listening for change notifications connects.
    let listenerConfiguration: PostgresConnection.Configuration
    let listener = Mutex<Task<Void, Never>?>(nil)

    init(client: PostgresClient, listenerConfiguration: PostgresConnection.Configuration, logger: Logger) {
        self.client = client
        self.listenerConfiguration = listenerConfiguration
        self.logger = logger
        self.runner = Task { await client.run() }
    }

    /// Connects to a `postgres://user:password@host:port/database[?sslmode=…&sslrootcert=…]` URL (``PostgresURL``).
    /// - Parameter url: The URL (`DATABASE_URL`).
    /// - Returns: The database.
    /// - Throws: ``StorageError`` naming what is wrong with the URL.
    public static func connect(url: String) throws -> PostgresStoreDatabase {
        let parsed = try PostgresURL(url)
        var configuration = PostgresClient.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password,
            database: parsed.database,
            tls: try parsed.clientTLS())
        configuration.options.maximumConnections = 16
        // Every statement is a keyed lookup or a write: a generic plan is right, and re-planning each execution
        // (PostgreSQL's default for the first runs of a prepared statement, and whenever a custom plan looks
        // cheaper) was a tenth of its CPU.
        // No JIT: every statement is small, and a generic plan's cost estimate can pass `jit_above_cost` and spend
        // hundreds of milliseconds compiling one.
        configuration.options.additionalStartupParameters = [
            ("plan_cache_mode", "force_generic_plan"), ("jit", "off"),
        ]
        var logger = Logger(label: "storekeeper.postgres")
        logger.logLevel = .warning
        let listenerConfiguration = PostgresConnection.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password,
            database: parsed.database,
            tls: try parsed.connectionTLS())
        return PostgresStoreDatabase(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            listenerConfiguration: listenerConfiguration,
            logger: logger)
    }

    /// Listens on `channel` on a dedicated connection until closed, publishing each payload as a changed
    /// subscriber to `changes`: `live` once listening, `interrupted` when the connection fails (then it
    /// reconnects after a second).
    public func listen(on channel: String, publishingTo changes: SubscriberChanges) {
        let configuration = listenerConfiguration
        let logger = logger
        let task = Task {
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: -1, logger: logger)
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: channel) { notifications in
                        changes.publish(.live)
                        for try await notification in notifications {
                            changes.publish(.changed([notification.payload]))
                        }
                    }
                } catch {
                    logger.warning("change listener: \(String(describing: type(of: error)))")
                }
                changes.publish(.interrupted)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listener.withLock { $0 = task }
    }

    /// Runs `body` in a transaction on one pooled connection.
    public func withTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T
    {
        try await run("BEGIN", body)
    }

    /// Runs reads on one pooled connection in a read-only transaction.
    public func withReadTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws
        -> T
    {
        try await run("BEGIN READ ONLY", body)
    }

    /// Runs one statement on a pooled connection, outside a transaction.
    public func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await client.withConnection { connection in
            try await PostgresStoreTransaction(connection: connection, logger: logger).query(
                sql, binds)
        }
    }

    private func run<T: Sendable>(_ begin: PostgresQuery, _ body: @Sendable (any SQLTransaction) async throws -> T)
        async throws -> T
    {
        try await client.withConnection { connection in
            _ = try await connection.query(begin, logger: logger)
            do {
                let result = try await body(
                    PostgresStoreTransaction(connection: connection, logger: logger))
                _ = try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Stops the listener and the pool.
    public func close() async throws {
        listener.withLock { $0?.cancel() }
        runner.cancel()
    }
}

struct PostgresStoreTransaction: SQLTransaction {
    var dialect: SQLDialect { .postgres }
    let connection: PostgresConnection
    let logger: Logger

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var rows: [PostgresRow] = []
        if let prepared = try await PreparedStatements.run(sql, binds, on: connection, logger: logger) {
            rows = prepared
        } else {
            for try await row in try await connection.query(
                PostgresQuery(
                    unsafeSQL: PreparedStatements.numbered(sql), binds: try PreparedStatements.bindings(binds)),
                logger: logger)
            {
                rows.append(row)
            }
        }
        var result: [SQLRow] = []
        for row in rows {
            var converted: SQLRow = [:]
            for cell in row {
                guard cell.bytes != nil else {
                    converted[cell.columnName] = .null
                    continue
                }
                if cell.format == .binary, let bytes = cell.bytes {
                    // Prepared results arrive in binary: integers big-endian, text (and json cast to text) as UTF-8.
                    converted[cell.columnName] = Self.binary(bytes, cell.dataType)
                    continue
                }
                switch cell.dataType {
                case .int2, .int4, .int8: converted[cell.columnName] = .integer(try cell.decode(Int64.self))
                default: converted[cell.columnName] = .text(try cell.decode(String.self))
                }
            }
            result.append(converted)
        }
        return result
    }
}

extension PostgresStoreTransaction {
    /// A binary result value as ours.
    static func binary(_ bytes: ByteBuffer, _ type: PostgresDataType) -> SQLValue {
        let view = bytes.readableBytesView
        switch type {
        case .int2, .int4, .int8:
            var number: Int64 = view.first.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
            for byte in view { number = number << 8 | Int64(byte) }
            return .integer(number)
        default:
            return .text(String(decoding: view, as: UTF8.self))
        }
    }
}

extension SQLStore {
    /// A store on PostgreSQL.
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database`.
    ///   - groupCommit: How notifications that arrive together commit.
    ///   - projects: The project of each app that groups apps (bundle id → project), for rows written before
    ///     projects existed.
    ///   - cacheBudget: The memory its caches of decoded evidence and encoded observations may use.
    ///   - announcer: Decides what each write announces (the webhooks' outbox); `nil` announces nothing.
    ///   - folding: The engine whose fold moves superseded history out of each saved row; `nil` keeps it all.
    /// - Returns: The migrated store.
    public static func postgres(
        url: String, groupCommit: GroupCommit = .standard,
        projects: [String: ProjectScope] = [:], cacheBudget: CacheBudget = .standard,
        announcer: (any ChangeAnnouncer)? = nil, folding: SubscriptionEngine? = nil
    ) async throws -> SQLStore {
        let database = try PostgresStoreDatabase.connect(url: url)
        let store = SQLStore(
            database: database, evidenceCache: EvidenceCache(budget: cacheBudget.evidence),
            evidenceEncoder: EvidenceEncoder(budget: cacheBudget.encodings), groupCommit: groupCommit,
            announcer: announcer, folding: folding)
        try await store.migrate(projects: projects)
        database.listen(on: SQLStore.changeChannel, publishingTo: store.changes)
        return store
    }
}
