import Foundation
import Logging
import PostgresNIO
import StoreKeeperPostgres
import StoreKeeperSQLite
public import StoreKeeperStorage
public import SubscriptionEngine
public import SubscriptionMetrics

/// Fresh, empty stores for tests: an SQLite file in a temporary folder, or a new PostgreSQL database on the
/// server named by `STOREKEEPER_TEST_DATABASE_URL` (scripts/test starts one).
public enum TestDatabases {
    /// The backends to run a conformance test against.
    public static let backends = ["sqlite", "postgres"]

    /// The write executors the store conformance suite holds to the same results: SQLite, PostgreSQL one write at
    /// a time (the production setting: a notification that arrives alone commits alone), and PostgreSQL group commit taking even a lone notification through the group's transaction.
    public static let executors = ["sqlite", "postgres", "postgres-group"]

    /// The PostgreSQL server URL for tests, if one is available.
    public static var postgresURL: String? { ProcessInfo.processInfo.environment["STOREKEEPER_TEST_DATABASE_URL"] }

    /// Whether this run must exercise PostgreSQL (CI and scripts/test set `CI` or the URL).
    public static var postgresRequired: Bool { ProcessInfo.processInfo.environment["CI"] != nil || postgresURL != nil }

    /// A fresh store, or `nil` when the backend is PostgreSQL and no server is configured (local `swift test`).
    public static func makeStore(
        _ backend: String, announcer: (any ChangeAnnouncer)? = nil, folding: SubscriptionEngine? = nil,
        rollupRules: ProceedsRules? = nil
    ) async throws -> SQLStore? {
        switch backend {
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "storekeeper-\(UUID().uuidString).sqlite"
            ).path
            return try await SQLStore.sqlite(
                path: path, announcer: announcer, folding: folding, rollupRules: rollupRules)
        case "postgres-group":
            guard let url = try await freshPostgresDatabase() else { return nil }
            return try await SQLStore.postgres(
                url: url, groupCommit: GroupCommit(workers: 1, largestGroup: 8, smallestGroup: 1),
                announcer: announcer, folding: folding, rollupRules: rollupRules)
        default:
            guard let url = try await freshPostgresDatabase() else { return nil }
            return try await SQLStore.postgres(
                url: url, announcer: announcer, folding: folding, rollupRules: rollupRules)
        }
    }

    /// The environment a `storekeeper serve` of `backend` runs with: none for SQLite, `DATABASE_URL` of a fresh
    /// database for PostgreSQL; `nil` when PostgreSQL is asked for and no test server is configured.
    public static func serveEnvironment(_ backend: String) async throws -> [String: String]? {
        guard backend == "postgres" else { return [:] }
        return try await freshPostgresDatabase().map { ["DATABASE_URL": $0] }
    }

    /// Creates an empty database on the test server and returns its URL.
    public static func freshPostgresDatabase() async throws -> String? {
        guard let base = postgresURL, var components = URLComponents(string: base) else { return nil }
        let name = "sk_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        var configuration = PostgresClient.Configuration(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432,
            username: components.user ?? "postgres",
            password: components.password, database: "postgres", tls: .disable)
        configuration.options.maximumConnections = 1
        var logger = Logger(label: "tests.postgres")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            group.cancelAll()
        }
        components.path = "/\(name)"
        return components.string
    }
}
