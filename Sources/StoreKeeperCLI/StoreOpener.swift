import Foundation
import StoreKeeperPostgres
import StoreKeeperServer
import StoreKeeperSQLite
import StoreKeeperStorage

/// Opens the configured store (PostgreSQL when a database URL is set, SQLite under the data folder
/// otherwise), migrated.
enum StoreOpener {
    static func open(_ configuration: ServerConfiguration) async throws -> SQLStore {
        if let url = configuration.databaseURL { return try await SQLStore.postgres(url: url) }
        return try await SQLStore.sqlite(
            path: URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("storekeeper.sqlite").path)
    }
}
