import Foundation
import Logging
import PostgresNIO
public import StoreKeeperStorage
public import SubscriptionEngine
public import SubscriptionMetrics
import Synchronization

/// PostgreSQL for ``SQLStore``: a PostgresNIO connection pool; every unit of work is one transaction on one
/// pooled connection, so several server replicas can share the database.
public final class PostgresStoreDatabase: SQLDatabase {
    /// PostgreSQL.
    public let dialect: any SQLDialect = PostgresDialect()
    let client: PostgresClient
    let runner: Task<Void, Never>
    let logger: Logger
    /// Where a dedicated connection listening for change notifications connects.
    let listenerConfiguration: PostgresConnection.Configuration
    let listeners = Mutex<[Task<Void, Never>]>([])
    /// How long a unit of work waits for a pooled connection before it fails as ``DatabaseUnavailable`` (`nil`:
    /// as long as the pool takes, which waits for ever while the server is down).
    let acquireTimeout: Duration?
    /// When the current outage began (`nil`: the database answers), so an outage is reported once, not per call.
    let outage = Mutex<ContinuousClock.Instant?>(nil)
    /// Fails a statement whose connection closes under it (PostgresNIO would never answer it).
    let watch = ConnectionWatch()

    init(
        client: PostgresClient, listenerConfiguration: PostgresConnection.Configuration, logger: Logger,
        acquireTimeout: Duration?
    ) {
        self.client = client
        self.listenerConfiguration = listenerConfiguration
        self.logger = logger
        self.acquireTimeout = acquireTimeout
        self.runner = Task { await client.run() }
    }

    /// Connects to a `postgres://user:password@host:port/database[?sslmode=…&sslrootcert=…]` URL (``PostgresURL``).
    /// - Parameters:
    ///   - url: The URL (`DATABASE_URL`).
    ///   - acquireTimeout: How long a unit of work waits for a connection before it fails as
    ///     ``DatabaseUnavailable`` (`limits.databaseTimeoutSeconds`); `nil` waits as long as the pool does.
    /// - Returns: The database.
    /// - Throws: ``StorageError`` naming what is wrong with the URL.
    public static func connect(url: String, acquireTimeout: Duration? = nil) throws -> PostgresStoreDatabase {
        let parsed = try PostgresURL(url)
        var configuration = PostgresClient.Configuration(
            host: parsed.host, port: parsed.port, username: parsed.username, password: parsed.password,
            database: parsed.database,
            tls: try parsed.clientTLS())
        configuration.options.maximumConnections = 16
        // Each time a connection goes idle the pool arms its timers (by default a keep-alive query after 30 s, and a
        // close after 60 s for a connection above the minimum) as sleeping tasks, and a timer the next lease cancels
        // stays in memory until its deadline: at thousands of statements a second, hundreds of megabytes of dead
        // timers. Both are 10 s here, so each lingers 10 s at most; two connections stay open (kept alive), so a
        // request after a quiet spell does not wait for a new connection.
        configuration.options.minimumConnections = 2
        configuration.options.connectionIdleTimeout = .seconds(10)
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(10))
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
            logger: logger, acquireTimeout: acquireTimeout)
    }

    /// Listens on `channel` on a dedicated connection until closed, publishing each payload as a changed
    /// subscriber to `changes`: `live` once listening, `interrupted` when the connection fails (then it
    /// reconnects after a second).
    public func listen(on channel: String, publishingTo changes: SubscriberChanges) {
        let configuration = listenerConfiguration
        let logger = logger
        let task = Task {
            // One warning per interruption, not one per reconnection attempt while the server is away.
            var warned = false
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: -1, logger: logger)
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: channel) { notifications in
                        changes.publish(.live)
                        warned = false
                        for try await notification in notifications {
                            changes.publish(.changed([notification.payload]))
                        }
                    }
                } catch {
                    if !warned && !Task.isCancelled {
                        logger.warning("change listener: \(String(describing: type(of: error)))")
                        warned = true
                    }
                }
                changes.publish(.interrupted)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listeners.withLock { $0.append(task) }
    }

    /// Runs `body` in a transaction on one pooled connection.
    public func withTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T
    {
        try await run("BEGIN", body)
    }

    /// Runs reads on one pooled connection in a read-only transaction on one snapshot: repeatable read, so every
    /// statement sees what was committed when the first began (PostgreSQL's default, read committed, takes a new
    /// snapshot per statement, and an audit reading evidence and rollups in two statements would take a write
    /// committed between them for a difference). A read-only transaction at this level never fails to serialize.
    public func withReadTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws
        -> T
    {
        try await run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs one statement on a pooled connection, outside a transaction.
    public func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await pooled { connection in
            try await PostgresStoreTransaction(connection: connection, logger: self.logger, watch: self.watch)
                .query(sql, binds)
        }
    }

    private func run<T: Sendable>(_ begin: PostgresQuery, _ body: @Sendable (any SQLTransaction) async throws -> T)
        async throws -> T
    {
        try await pooled { connection in
            let transaction = PostgresStoreTransaction(connection: connection, logger: self.logger, watch: self.watch)
            try await transaction.statement(begin)
            do {
                let result = try await body(transaction)
                try await transaction.statement("COMMIT")
                return result
            } catch {
                // Not on a lost connection: a statement written to a closed channel is never answered.
                _ = try? await transaction.statement("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` on a pooled connection, failing as ``DatabaseUnavailable`` when none is had within
    /// ``acquireTimeout`` or the connection is lost; an outage is logged once when it begins and once when it ends.
    private func pooled<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        do {
            let result =
                if let acquireTimeout {
                    try await withoutActuallyEscaping(body) { body in
                        try await Self.withConnection(from: client, within: acquireTimeout, body)
                    }
                } else {
                    try await client.withConnection(body)
                }
            recovered(workStarted: started)
            return result
        } catch let error as DatabaseUnavailable {
            failed(error)
            throw error
        } catch let error as PSQLError where Self.meansUnavailable(error) {
            let unavailable = DatabaseUnavailable("the connection was lost (\(error.code))")
            failed(unavailable)
            throw unavailable
        }
    }

    /// Runs `body` on a connection of `client`, or fails as ``DatabaseUnavailable`` when none is had within
    /// `timeout` (the wait for it is cancelled; once had, the work has no deadline of its own here).
    static func withConnection<T: Sendable>(
        from client: PostgresClient, within timeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let acquired = AcquiredFlag()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    acquired.value.store(true, ordering: .sequentiallyConsistent)
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                guard acquired.value.load(ordering: .sequentiallyConsistent) else {
                    throw DatabaseUnavailable("no connection within \(timeout)")
                }
                return nil
            }
            while let next = try await group.next() {
                guard let value = next else { continue }
                group.cancelAll()
                return value
            }
            throw CancellationError()
        }
    }

    /// Whether an error says the server is gone rather than that a statement failed: a lost or refused connection,
    /// or the server shutting down or starting (SQLSTATE classes 08 and 57P).
    static func meansUnavailable(_ error: PSQLError) -> Bool {
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed: return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P")
        default: return false
        }
    }

    /// Notes a failure: the first of an outage is logged.
    private func failed(_ error: DatabaseUnavailable) {
        let began = outage.withLock { began -> Bool in
            guard began == nil else { return false }
            began = .now
            return true
        }
        if began {
            logger.warning(
                "PostgreSQL is unavailable; requests answer 503 until it is back",
                metadata: ["reason": "\(error.reason)"])
        }
    }

    /// Notes a success of work that started at `workStarted`: the end of an outage is logged. Work already under
    /// way when the outage began, or begun in its first second (while the server was still closing its connections
    /// one by one), says nothing about the server now, so it ends no outage; otherwise an outage would be reported
    /// again at the next failure.
    private func recovered(workStarted: ContinuousClock.Instant) {
        guard
            let began = outage.withLock({ began -> ContinuousClock.Instant? in
                guard let start = began, workStarted > start + .seconds(1) else { return nil }
                began = nil
                return start
            })
        else { return }
        logger.warning(
            "PostgreSQL answers again",
            metadata: ["outage_seconds": "\((ContinuousClock.now - began).components.seconds)"])
    }

    /// Stops the listeners and the pool.
    public func close() async throws {
        listeners.withLock { $0.forEach { $0.cancel() } }
        runner.cancel()
    }
}

/// Whether a unit of work has its connection yet (shared by the work and the timer that waits for it).
final class AcquiredFlag: Sendable {
    /// Set once the connection is had.
    let value = Atomic<Bool>(false)
}

struct PostgresStoreTransaction: SQLTransaction {
    var dialect: any SQLDialect { PostgresDialect() }
    let connection: PostgresConnection
    let logger: Logger
    /// Ends a statement whose connection closes under it.
    let watch: ConnectionWatch

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        // A statement written to a connection already closed (the server went away between two statements) is
        // never answered: fail it here instead, and while it runs (ConnectionWatch).
        guard !connection.isClosed else { throw DatabaseUnavailable("the connection was lost") }
        let (connection, logger) = (connection, logger)
        let rows = try await watch.run(on: connection) { () async throws -> [PostgresRow] in
            if let prepared = try await PreparedStatements.run(sql, binds, on: connection, logger: logger) {
                return prepared
            }
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(
                PostgresQuery(
                    unsafeSQL: PreparedStatements.numbered(sql), binds: try PreparedStatements.bindings(binds)),
                logger: logger)
            {
                rows.append(row)
            }
            return rows
        }
        var result: [SQLRow] = []
        result.reserveCapacity(rows.count)
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
    /// Runs a statement without values (`BEGIN`, `COMMIT`, `ROLLBACK`), unless the connection is already closed;
    /// its rows, if any, are read and dropped.
    func statement(_ query: PostgresQuery) async throws {
        guard !connection.isClosed else { throw DatabaseUnavailable("the connection was lost") }
        let (connection, logger) = (connection, logger)
        try await watch.run(on: connection) {
            for try await _ in try await connection.query(query, logger: logger) {}
        }
    }

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
    ///   - acquireTimeout: How long a unit of work waits for a connection before it fails as
    ///     ``DatabaseUnavailable``; `nil` waits as long as the pool does.
    /// - Returns: The migrated store.
    public static func postgres(
        url: String, groupCommit: GroupCommit = .standard,
        projects: [String: ProjectScope] = [:], cacheBudget: CacheBudget = .standard,
        announcer: (any ChangeAnnouncer)? = nil, folding: SubscriptionEngine? = nil,
        acquireTimeout: Duration? = nil, rollupRules: ProceedsRules? = nil
    ) async throws -> SQLStore {
        let database = try PostgresStoreDatabase.connect(url: url, acquireTimeout: acquireTimeout)
        let store = SQLStore(
            database: database, evidenceCache: EvidenceCache(budget: cacheBudget.evidence),
            evidenceEncoder: EvidenceEncoder(budget: cacheBudget.encodings), groupCommit: groupCommit,
            announcer: announcer, folding: folding, rollupRules: rollupRules)
        try await store.migrate(projects: projects)
        database.listen(on: SQLStore.changeChannel, publishingTo: store.changes)
        database.listen(on: SQLSettingStore.channel, publishingTo: store.settings.settingChanges)
        return store
    }
}
