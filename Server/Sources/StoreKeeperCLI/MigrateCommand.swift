import ArgumentParser
import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperServer
import StoreKeeperStorage

/// `storekeeper migrate [--config FILE]`: applies the database migrations and exits (serve also does this at
/// start; run it alone before rolling out several replicas).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply database migrations.")

    @Option(help: "Configuration file (JSON); DATABASE_URL overrides its database.") var config: String?

    func run() async throws {
        let configuration = try StoreOpener.configuration(path: config)
        let store = try await StoreOpener.open(configuration)
        let version = try await store.migrate()  // already applied by open; answers the version
        try await store.close()
        FileHandleOutput.standardOutput("schema at version \(version)")
    }
}
