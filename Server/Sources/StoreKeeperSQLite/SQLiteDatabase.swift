import FilePermissions
import Foundation
import SQLiteNIO
public import StoreKeeperStorage
public import SubscriptionEngine
public import SubscriptionMetrics

/// SQLite for ``SQLStore``: one connection to a file (WAL, full sync, so a commit survives a crash before the
/// 200 is sent), transactions serialised by a lock.
public final class SQLiteStoreDatabase: SQLDatabase {
    /// SQLite.
    public let dialect: any SQLDialect = SQLiteDialect()
    let connection: SQLiteConnection
    /// A second connection for single-statement reads (WAL lets it read committed data while a write
    /// transaction is open on `connection`); absent for in-memory databases, which cannot share.
    let reader: SQLiteConnection?
    let mutex = AsyncMutex()
    /// The file's exclusive lock: this process is its only writer (``SQLStore``'s remembered answers rely on it).
    let lock: ExclusiveFileLock?

    init(connection: SQLiteConnection, reader: SQLiteConnection?, lock: ExclusiveFileLock?) {
        self.connection = connection
        self.reader = reader
        self.lock = lock
    }

    /// Opens (creating when missing) a database file, or an in-memory database for `":memory:"`.
    ///
    /// The file is the owner's alone whatever the umask: a folder it creates is 0700, the database file 0600
    /// (SQLite gives its `-wal` and `-shm` files the database file's mode). One process at a time: a second one
    /// is refused, naming the folder and the holder's pid (`<file>.lock`).
    /// - Parameter path: The file.
    /// - Returns: The database.
    /// - Throws: ``StorageError`` when another process has the file open.
    public static func open(path: String) async throws -> SQLiteStoreDatabase {
        var lock: ExclusiveFileLock?
        if path != ":memory:" {
            try PrivateFiles.createDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            try PrivateFiles.restrict(path, creating: true)
            do {
                lock = try ExclusiveFileLock(path: path + ".lock")
            } catch {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                throw StorageError(
                    "data directory \(folder) is in use by another storekeeper: \(URL(fileURLWithPath: path).lastPathComponent).lock is "
                        + "\(error.reason); SQLite has one writer, so stop that process, choose another dataDirectory, "
                        + "or use PostgreSQL (DATABASE_URL) for several servers")
            }
            for suffix in ["-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try PrivateFiles.restrict(path + suffix, creating: false)
            }
        }
        do {
            let connection = try await SQLiteConnection.open(storage: path == ":memory:" ? .memory : .file(path: path))
            for pragma in [
                "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA busy_timeout=5000",
                "PRAGMA foreign_keys=ON",
            ] {
                _ = try await connection.query(pragma, [])
            }
            var reader: SQLiteConnection?
            if path != ":memory:" {
                let connection = try await SQLiteConnection.open(storage: .file(path: path))
                for pragma in ["PRAGMA busy_timeout=5000", "PRAGMA query_only=1"] {
                    _ = try await connection.query(pragma, [])
                }
                reader = connection
            }
            return SQLiteStoreDatabase(connection: connection, reader: reader, lock: lock)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// Runs one statement on the read connection (or, in memory, between other transactions).
    public func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        if let reader { return try await SQLiteTransaction(connection: reader).query(sql, binds) }
        let connection = self.connection
        return try await mutex.withLock { try await SQLiteTransaction(connection: connection).query(sql, binds) }
    }

    /// Runs `body` between BEGIN IMMEDIATE and COMMIT (ROLLBACK when it throws).
    public func withTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T
    {
        try await run("BEGIN IMMEDIATE", body)
    }

    /// Runs reads inside a deferred transaction (no write lock).
    public func withReadTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws
        -> T
    {
        try await run("BEGIN DEFERRED", body)
    }

    private func run<T: Sendable>(_ begin: String, _ body: @Sendable (any SQLTransaction) async throws -> T)
        async throws -> T
    {
        let connection = self.connection
        return try await mutex.withLock {
            _ = try await connection.query(begin, [])
            do {
                let result = try await body(SQLiteTransaction(connection: connection))
                try await Self.end(connection, "COMMIT")
                return result
            } catch {
                try? await Self.end(connection, "ROLLBACK")
                throw error
            }
        }
    }

    /// Ends the open transaction even when the calling task is cancelled: a cancelled task's statements are never
    /// run (the thread pool skips them), and a transaction left open would refuse every later one on this
    /// connection.
    private static func end(_ connection: SQLiteConnection, _ statement: String) async throws {
        try await Task { _ = try await connection.query(statement, []) }.value
    }

    /// Closes the connection.
    public func close() async throws {
        defer { lock?.release() }
        try await reader?.close()
        try await connection.close()
    }
}

struct SQLiteTransaction: SQLTransaction {
    let connection: SQLiteConnection
    var dialect: any SQLDialect { SQLiteDialect() }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let data: [SQLiteData] = try binds.map {
            switch $0 {
            case .text(let text): .text(text)
            case .integer(let value): .integer(Int(value))
            case .null: .null
            case .texts, .integers: throw StorageError("SQLite has no array values; this statement is PostgreSQL's")
            }
        }
        return try await connection.query(sql, data).map { row in
            var result: SQLRow = [:]
            for column in row.columns {
                switch column.data {
                case .text(let text): result[column.name] = .text(text)
                case .integer(let value): result[column.name] = .integer(Int64(value))
                case .float(let value): result[column.name] = .text(String(value))
                case .blob, .null: result[column.name] = .null
                }
            }
            return result
        }
    }
}

extension SQLStore {
    /// A store on an SQLite file.
    /// - Parameters:
    ///   - path: The database file (`":memory:"` for a throwaway one).
    ///   - projects: The project of each app that groups apps (bundle id → project), for rows written before
    ///     projects existed.
    ///   - cacheBudget: The memory its caches of decoded evidence and encoded observations may use.
    ///   - announcer: Decides what each write announces (the webhooks' outbox); `nil` announces nothing.
    ///   - folding: The engine whose fold moves superseded history out of each saved row; `nil` keeps it all.
    /// - Returns: The migrated store.
    public static func sqlite(
        path: String, projects: [String: ProjectScope] = [:], cacheBudget: CacheBudget = .standard,
        announcer: (any ChangeAnnouncer)? = nil, folding: SubscriptionEngine? = nil, rollupRules: ProceedsRules? = nil
    ) async throws -> SQLStore {
        let store = SQLStore(
            database: try await SQLiteStoreDatabase.open(path: path),
            evidenceCache: EvidenceCache(budget: cacheBudget.evidence),
            evidenceEncoder: EvidenceEncoder(budget: cacheBudget.encodings), announcer: announcer, folding: folding,
            rollupRules: rollupRules)
        try await store.migrate(projects: projects)
        return store
    }
}
