import AppStoreClient
import AppStoreSimulator
import AppStoreSimulatorServer
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import StoreKeeperAPI
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperServer
import StoreKeeperStorage
import Synchronization

/// `storekeeper serve [--hostname H] [--port P] [--config FILE]`
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the StoreKeeper server.",
        discussion: """
            With no configuration: SQLite under ./data, the App Store simulator in-process as Apple, and a demo app
            with demo keys. With --config (JSON, see examples/server-config.json) and DATABASE_URL: production.
            """
    )

    @Option(help: "Address to listen on (default 127.0.0.1).") var hostname: String?
    @Option(help: "Port to listen on (default 8080; 0 picks a free one).") var port: Int?
    @Option(help: "Configuration file (JSON).") var config: String?
    @Option(
        help:
            "The in-process simulator's clock: system, or manual (moved by POST /simulator/v1/clock/advance; the server runs on it too)."
    )
    var simulatorClock: String?
    @Option(help: "The in-process simulator's sandbox month: 3m, 5m, 15m, 30m, 1h or real.") var simulatorRate: String?
    @Option(help: "The in-process simulator's environment: Sandbox or Production.") var simulatorEnvironment: String?
    @Option(help: "The data folder (SQLite, the simulator's world; default data).") var data: String?
    @OptionGroup var logging: LogOptions

    func run() async throws {
        let logger = logging.bootstrap()
        var configuration = try StoreOpener.configuration(path: config)
        if let hostname { configuration.hostname = hostname }
        if let port { configuration.port = port }
        do {
            if let simulatorClock {
                configuration.simulator.clock = try .named(simulatorClock, field: "--simulator-clock")
            }
            if let simulatorRate { configuration.simulator.rate = try .named(simulatorRate, field: "--simulator-rate") }
            if let simulatorEnvironment {
                configuration.simulator.environment = try .named(simulatorEnvironment, field: "--simulator-environment")
            }
        } catch { throw CommandFailure("\(error)") }
        if let data { configuration.dataDirectory = data }
        if configuration.port == 0, let free = FreePort.find() { configuration.port = free }

        do { try configuration.validate() } catch { throw CommandFailure("\(error)") }
        let completed = Completed()
        let assembly = try await ServerAssembly.make(configuration, logger: logger) { port in
            guard let final = await completed.configuration else { return }
            let simulator = final.usesSimulator
            FileHandleOutput.standardOutput(Self.banner(final, port: port, simulator: simulator))
            for (bundleID, facts) in Self.appFacts(final, port: port, simulator: simulator) {
                logger.info("app \(bundleID) ready", metadata: facts)
            }
        }
        await completed.set(assembly.configuration)
        let finalConfiguration = assembly.configuration
        let services = assembly.services
        // The service group's own messages only when something is wrong.
        var groupLogger = logger
        groupLogger.logLevel = max(logger.logLevel, .warning)
        // A stop is bounded: what has not shut down gracefully within 30 s is cancelled, and what ignores that
        // for 10 s more is left behind as the process exits (a service manager would kill it anyway). Seen once in
        // a test after a PostgreSQL outage: a SIGTERM the process never finished.
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: groupLogger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(30)
        groupConfiguration.maximumCancellationDuration = .seconds(10)
        let group = ServiceGroup(configuration: groupConfiguration)
        do { try await group.run() } catch {
            await Self.close(assembly)
            if let error = error as? IOError, error.errnoCode == EADDRINUSE {
                throw CommandFailure(
                    "port \(finalConfiguration.port) on \(finalConfiguration.hostname) is already in use: stop what listens "
                        + "there or choose another --port")
            }
            throw error
        }
        await Self.close(assembly)
        logger.info("StoreKeeper stopped")
    }

    /// Closes the store and the HTTP client, waiting at most 10 s (the process ends after it either way).
    static func close(_ assembly: ServerAssembly) async {
        let closed = ClosedFlag()
        Task {
            await assembly.close()
            closed.value.store(true, ordering: .releasing)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !closed.value.load(ordering: .acquiring) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether the store and the HTTP client have closed.
    final class ClosedFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// The process's metrics registry: swift-metrics is bootstrapped once per process (the first `serve` in it),
    /// and `/metrics` shows this registry.
    static let metrics: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// What the startup log says of each app: its environment, how Apple is reached, and the URL to paste into
    /// App Store Connect for App Store Server Notifications (V2).
    static func appFacts(_ configuration: ServerConfiguration, port: Int, simulator: Bool) -> [(
        String, Logger.Metadata
    )] {
        let base = "http://\(configuration.hostname):\(port)"
        return configuration.apps.map { app in
            var facts: Logger.Metadata = [
                "environment": "\(app.environment ?? "Production and Sandbox")",
                "notification_url": "\(base)\(APIPath.notifications)",
            ]
            if simulator {
                facts["apple"] = "the in-process simulator (\(base)/simulator/v1)"
            } else {
                facts["apple"] =
                    "verifyReceipt \(configuration.apple.verifyReceiptProductionURL ?? AppStoreClient.Configuration().verifyReceiptProductionURL) (then sandbox)"
                facts["server_api"] =
                    "\(app.keyID.map { "key \($0), issuer \(app.issuerID ?? "?")" } ?? "not configured (no status fetches)")"
            }
            return (app.bundleID, facts)
        }
    }

    /// With the simulator on: its PKI (loaded or made under the data folder), the simulator, and — with no app
    /// configured — the demo app and keys put into `configuration`.
    /// - Returns: The simulator and the roots to trust, or `nil` and none.
    static func simulatorAsApple(_ configuration: inout ServerConfiguration, clockStart: Date? = nil) async throws -> (
        AppStoreSimulator?, ManualClock?, [[UInt8]], SimulatorWorldFile?
    ) {
        var simulator: AppStoreSimulator?
        var manualClock: ManualClock?
        var extraRoots: [[UInt8]] = []
        var worldFile: SimulatorWorldFile?
        if configuration.usesSimulator {
            let directory = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("simulator")
            let pki = try SimulatorPKI.loadOrCreate(in: directory.appendingPathComponent("pki"))
            var simulatorConfiguration = AppStoreSimulator.Configuration()
            simulatorConfiguration.environment = configuration.simulator.environment.rawValue
            simulatorConfiguration.rate =
                SandboxRate(rawValue: configuration.simulator.rate.rawValue) ?? simulatorConfiguration.rate
            // The world the last run saved: its customers keep their subscriptions and no id is handed out again
            // (and a manual clock continues from where it stood).
            let file = SimulatorWorldFile(directory: directory.path)
            let saved = try file.load()
            if configuration.simulator.clock == .manual {
                manualClock = ManualClock(start: saved?.clock ?? clockStart ?? Date())
            }
            let sim = AppStoreSimulator(
                configuration: simulatorConfiguration, pki: pki, clock: manualClock ?? SystemClock())
            if let saved { try await sim.restore(saved) }
            simulator = sim
            worldFile = file
            extraRoots = [pki.signedDataRootDER, pki.receiptRootDER]
            if configuration.apps.isEmpty {
                let demo = await sim.app(SimulatedApp.demo().bundleID) ?? SimulatedApp.demo()
                var key = await sim.generatedAPIKey(bundleID: demo.bundleID)
                if key == nil { key = try await sim.createApp(demo) }
                var app = ServerConfiguration.App(bundleID: demo.bundleID)
                app.appAppleID = demo.appAppleID
                app.sharedSecret = demo.sharedSecret
                app.issuerID = demo.issuerID
                app.keyID = demo.apiKeyID
                app.privateKeyPEM = key
                // The demo's In-App Purchase key signs promotional offers too, as one App Store Connect key can.
                app.offerKeyID = demo.apiKeyID
                app.offerPrivateKeyPEM = key
                configuration.apps = [app]
                configuration.simulator.enabled = true
                configuration.engine = ServerConfiguration.demoEngine
                configuration.apiKeys = [
                    .init(key: ServerConfiguration.demoPublicKey, kind: .public, bundleID: demo.bundleID),
                    .init(key: ServerConfiguration.demoSecretKey, kind: .secret, bundleID: demo.bundleID),
                ]
            }
        }
        return (simulator, manualClock, extraRoots, worldFile)
    }

    static func pointDemoNotifications(_ simulator: AppStoreSimulator, port: Int) async {
        guard var demo = await simulator.app(SimulatedApp.demo().bundleID) else { return }
        demo.notificationURL = "http://127.0.0.1:\(port)/v1/notifications/appstore"
        // Retention Messaging's real-time requests, as Configure Realtime URL would set them.
        demo.realtimeURL = demo.realtimeURL ?? "http://127.0.0.1:\(port)/v1/retention/appstore"
        _ = try? await simulator.createApp(demo)
    }

    static func banner(_ configuration: ServerConfiguration, port: Int, simulator: Bool) -> String {
        let base = "http://\(configuration.hostname):\(port)"
        var lines = [
            "StoreKeeper listening on \(base)",
            "  storage: "
                + (configuration.databaseURL == nil
                    ? "SQLite \(configuration.dataDirectory)/storekeeper.sqlite" : "PostgreSQL"),
            "  API: \(base)/v1  (OpenAPI: \(base)/openapi.json)",
        ]
        // The demo's keys and tour only when this server takes them: a configuration with its own apps or keys
        // refuses them, and a banner must not offer keys that answer 401.
        let demo =
            simulator && configuration.apiKeys.contains { $0.key == ServerConfiguration.demoPublicKey }
            && configuration.apps.contains { $0.bundleID == ServerConfiguration.demoBundleID }
        if simulator && !demo {
            lines += [
                "  Apple: the App Store simulator, in-process at \(base)/verifyReceipt, \(base)/inApps, \(base)/simulator/v1",
                "  apps: " + configuration.apps.map(\.bundleID).sorted().joined(separator: ", ")
                    + "; keys as configured (not shown)",
            ]
        }
        if demo {
            lines += [
                "  Apple: the App Store simulator, in-process at \(base)/verifyReceipt, \(base)/inApps, \(base)/simulator/v1",
                "  simulated time: a sandbox month is \(configuration.simulator.rate.rawValue); clock \(configuration.simulator.clock.rawValue)"
                    + (configuration.simulator.clock == .manual
                        ? " (the server too; move both: curl -s -X POST \(base)/simulator/v1/clock/advance -d '{\"months\":1}')"
                        : ""),
                "  demo app: com.example.storekeeper.demo; public key \(ServerConfiguration.demoPublicKey), secret key \(ServerConfiguration.demoSecretKey)",
                "  try it (paste these lines in order; the last prints alice's subscription):",
                "    B=\(base) PK='Authorization: Bearer \(ServerConfiguration.demoPublicKey)'",
                "    curl -s -X POST $B/simulator/v1/purchases -d '{\"bundleID\":\"com.example.storekeeper.demo\",\"productID\":\"premium.monthly\",\"customerID\":\"alice\"}'; echo",
                "    RECEIPT=$(curl -s \"$B/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=alice\" | sed -E 's/.*\"receipt\":\"([^\"]*)\".*/\\1/')",
                "    curl -s -X POST $B/v1/receipts -H \"$PK\" -d \"{\\\"app_user_id\\\":\\\"alice\\\",\\\"receipt\\\":\\\"$RECEIPT\\\"}\"; echo",
                "    curl -s $B/v1/subscribers/alice -H \"$PK\"; echo",
            ]
        }
        return lines.joined(separator: "\n")
    }
}

/// The configuration as the assembly completed it, for the banner printed once the server listens.
actor Completed {
    var configuration: ServerConfiguration?
    func set(_ configuration: ServerConfiguration) { self.configuration = configuration }
}
