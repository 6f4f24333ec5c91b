import ArgumentParser
import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionEngine

/// Loads the command line's configuration and opens the configured store (PostgreSQL when a database URL is
/// set, SQLite under the data folder otherwise), migrated.
enum StoreOpener {
    /// The configuration `--config` and the environment give; a bad file is the option's error.
    static func configuration(path: String?) throws -> ServerConfiguration {
        do {
            return try ServerConfiguration.load(path: path, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    static func open(_ configuration: ServerConfiguration) async throws -> SQLStore {
        let projects = try configuration.projectScopes()
        let budget = CacheBudget(megabytes: configuration.cacheMegabytes)
        // Every write announces its changes with the engine the server answers with (the webhooks' outbox).
        let engine = SubscriptionEngine(configuration: configuration.engine)
        let announcer = WebhookAnnouncer(engine: engine, pollSchedule: configuration.pollSchedule)
        // Every row keeps only what its answers depend on; superseded history goes to evidence_history.
        if let url = configuration.databaseURL {
            return try await SQLStore.postgres(
                url: url, projects: projects, cacheBudget: budget, announcer: announcer, folding: engine)
        }
        return try await SQLStore.sqlite(
            path: URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("storekeeper.sqlite").path,
            projects: projects, cacheBudget: budget, announcer: announcer, folding: engine)
    }
}
