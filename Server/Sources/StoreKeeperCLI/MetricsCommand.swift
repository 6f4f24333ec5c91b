import ArgumentParser
import Foundation
import StoreKeeperServer
import StoreKeeperStorage

/// `storekeeper metrics`: the rollups metrics are answered from — `verify` them against the stored evidence,
/// `rebuild` them.
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "Check or rebuild the metric rollups.",
        subcommands: [MetricsVerifyCommand.self, MetricsRebuildCommand.self])

    /// The configured projects (the demo app's without any, as `serve` runs it), or the one `project` names
    /// (refused by name when none is configured).
    static func projects(_ configuration: ServerConfiguration, _ project: String?) throws -> [ProjectScope] {
        var configured = Array(try configuration.projectScopes().values)
        if configuration.apps.isEmpty { configured = [try ProjectScope(ServerConfiguration.demoBundleID)] }
        let scopes = Dictionary(configured.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard let project else { return scopes.values.sorted { $0.id < $1.id } }
        guard let scope = scopes[project] else {
            throw CommandFailure(
                "--project \(project): not configured; one of \(scopes.keys.sorted().joined(separator: ", "))")
        }
        return [scope]
    }
}

/// What both `metrics` commands take: the configuration, the data folder, and a project.
struct MetricsOptions: ParsableArguments {
    @Option(help: "Configuration file (JSON); DATABASE_URL overrides its database.") var config: String?
    @Option(help: "Only this project (default: every configured one).") var project: String?
    @Option(help: "The data folder (SQLite; default data, as serve).") var data: String?

    /// The store (migrated) and the projects to work on; refused when the configuration keeps no rollups.
    func open() async throws -> (store: SQLStore, projects: [ProjectScope]) {
        var configuration = try StoreOpener.configuration(path: config)
        if let data { configuration.dataDirectory = data }
        guard configuration.metrics.rollups else {
            throw CommandFailure("metricRollups is false in the configuration: no rollups are kept")
        }
        let projects = try MetricsCommand.projects(configuration, project)
        return (try await StoreOpener.open(configuration), projects)
    }
}

/// `storekeeper metrics verify`: computes every subscriber's contribution again from its stored evidence and
/// compares it, and their sum, with the stored rollups; exits 1 naming the first difference.
struct MetricsVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Compare the metric rollups with the stored evidence.")

    @OptionGroup var options: MetricsOptions

    func run() async throws {
        let (store, projects) = try await options.open()
        var differences: [String] = []
        for scope in projects {
            let result = try await store.verifyRollups(in: scope) { checked in
                FileHandleOutput.standardError("verifying \(scope.id): \(checked) subscribers")
            }
            if let difference = result.difference {
                differences.append("\(scope.id): \(difference)")
                FileHandleOutput.standardOutput("\(scope.id): rollups differ from the evidence: \(difference)")
            } else {
                let whole = try await store.rollupsReady(in: scope) ? "" : " (not yet marked whole: a build is due)"
                FileHandleOutput.standardOutput(
                    "\(scope.id): rollups match the evidence (\(result.subscribers) subscribers, \(result.rows) rows)"
                        + whole)
            }
        }
        try await store.close()
        if !differences.isEmpty { throw ExitCode(1) }
    }
}

/// `storekeeper metrics rebuild`: forgets the rollups and builds them again from the stored evidence.
struct MetricsRebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Build the metric rollups again from the stored evidence.")

    @OptionGroup var options: MetricsOptions

    func run() async throws {
        let (store, projects) = try await options.open()
        for scope in projects {
            var said = 0
            let counted = try await store.rebuildRollups(in: scope) { done in
                guard done - said >= 10_000 else { return }
                said = done
                FileHandleOutput.standardError("rebuilding \(scope.id): \(done) subscribers")
            }
            FileHandleOutput.standardOutput("\(scope.id): rollups rebuilt from \(counted) subscribers")
        }
        try await store.close()
    }
}
