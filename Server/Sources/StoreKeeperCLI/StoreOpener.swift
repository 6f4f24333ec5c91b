import ArgumentParser
import FilePermissions
import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
package import StoreKeeperServer
package import StoreKeeperStorage
import SubscriptionEngine

/// Loads the command line's configuration and opens the configured store (PostgreSQL when a database URL is
/// set, SQLite under the data folder otherwise), migrated.
package enum StoreOpener {
    /// The configuration `--config` and the environment give; a bad file is the option's error.
    package static func configuration(path: String?) throws -> ServerConfiguration {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(path: path, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure("\(error)")
        }
        // A file that holds secrets is kept from other users, as the key files are (its group may read it: the
        // service's own group, as deploy/storekeeper.service sets it up).
        if let path, let secrets = configuration.secretsHeld, let mode = PrivateFiles.mode(path), mode & 0o007 != 0 {
            throw CommandFailure(
                "configuration file \(path) holds secrets (\(secrets)) and other users can read it (mode "
                    + "0\(String(mode, radix: 8))); run chmod 600 \(path) (or 640 with the service's group)")
        }
        return configuration
    }

    package static func open(_ configuration: ServerConfiguration) async throws -> SQLStore {
        let projects = try configuration.projectScopes()
        let budget = CacheBudget(megabytes: configuration.cacheMegabytes)
        // Every write announces its changes with the engine the server answers with (the webhooks' outbox).
        let engine = SubscriptionEngine(configuration: configuration.engine)
        let announcer = WebhookAnnouncer(engine: engine, pollSchedule: configuration.polling.schedule)
        // Every row keeps only what its answers depend on; superseded history goes to evidence_history. Every
        // write keeps the metric rollups, unless turned off.
        let rules = configuration.metrics.rollups ? configuration.metrics.proceeds : nil
        let store: SQLStore
        if let url = configuration.databaseURL {
            store = try await SQLStore.postgres(
                url: url, projects: projects, cacheBudget: budget, announcer: announcer, folding: engine,
                acquireTimeout: .milliseconds(Int64(configuration.limits.databaseTimeoutSeconds * 1_000)),
                rollupRules: rules)
        } else {
            store = try await SQLStore.sqlite(
                path: URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("storekeeper.sqlite")
                    .path,
                projects: projects, cacheBudget: budget, announcer: announcer, folding: engine, rollupRules: rules)
        }
        // Writes without rollups leave them partial: whoever keeps them next builds them again.
        if rules == nil { try await store.forgetRollupBuilds() }
        return store
    }
}
