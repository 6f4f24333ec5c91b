import ArgumentParser
import Foundation
import StoreKeeperPostgres
import StoreKeeperServer
import StoreKeeperSQLite
import StoreKeeperStorage

/// `storekeeper migrate [--config FILE]`: applies the database migrations and exits (serve also does this at
/// start; run it alone before rolling out several replicas).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply database migrations.")

    @Option(help: "Configuration file (JSON); DATABASE_URL overrides its database.") var config: String?

    func run() async throws {
        var configuration = ServerConfiguration()
        if let config {
            do {
                configuration = try JSONDecoder().decode(ServerConfiguration.self, from: Data(contentsOf: URL(fileURLWithPath: config)))
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
        configuration.applyEnvironment(ProcessInfo.processInfo.environment)
        let store: SQLStore
        if let url = configuration.databaseURL {
            store = SQLStore(database: try PostgresStoreDatabase.connect(url: url))
        } else {
            store = SQLStore(database: try await SQLiteStoreDatabase.open(
                path: URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("storekeeper.sqlite").path))
        }
        let version = try await store.migrate()
        try await store.close()
        FileHandleOutput.standardOutput("schema at version \(version)")
    }
}
