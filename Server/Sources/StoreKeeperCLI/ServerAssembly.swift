import AppStoreClient
package import AppStoreSimulator
import AppStoreSimulatorServer
package import AsyncHTTPClient
package import Foundation
import Hummingbird
package import Logging
package import ServiceLifecycle
package import StoreKeeperServer
package import StoreKeeperStorage

/// A `storekeeper serve` put together from its configuration: the store, the HTTP application and its workers,
/// and — with the simulator as Apple — the in-process simulator with its delivery and world keeper. `serve` runs
/// one until a signal; `simulate` runs one in-process beside its driver.
package struct ServerAssembly {
    /// Everything to run, the HTTP application first.
    package var services: [any Service]
    /// The in-process simulator, when it is Apple.
    package var simulator: AppStoreSimulator?
    /// Its manual clock, when it has one.
    package var manualClock: ManualClock?
    /// The configuration as completed (demo app and keys filled in).
    package var configuration: ServerConfiguration
    package let httpClient: HTTPClient
    package let store: any Store

    /// Assembles a server.
    /// - Parameters:
    ///   - configuration: A validated configuration.
    ///   - logger: The server's logger.
    ///   - clockStart: Where a new manual clock starts (default: now, or where the saved world's stood).
    ///   - onRunning: Called with the bound port once the server listens.
    /// - Throws: Opening the store or building the application failed.
    package static func make(
        _ configuration: ServerConfiguration, logger: Logger, clockStart: Date? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) async throws -> ServerAssembly {
        var configuration = configuration
        // The simulator first: in demo mode it configures the demo app and its products, which the store's
        // announcer evaluates with.
        let (simulator, manualClock, extraRoots, worldFile) = try await ServeCommand.simulatorAsApple(
            &configuration, clockStart: clockStart)
        let store = try await StoreOpener.open(configuration)
        // The demo app comes with a paywall: its offering is written once, so `offerings()` answers at once.
        if simulator != nil, configuration.apps.map(\.bundleID) == [ServerConfiguration.demoBundleID] {
            let project = try configuration.projectScopes()[ServerConfiguration.demoBundleID]
            try await DemoOffering.seed(
                into: store.settings, projectID: project?.id ?? ServerConfiguration.demoBundleID,
                now: manualClock?.now() ?? Date())
        }
        let httpClient = OutboundHTTPClient.make()
        var dependencies = StoreKeeperApplication.Dependencies(
            store: store, httpClient: httpClient,
            extraRoutes: { router in
                // The composition root mounts the in-process simulator as Apple on the same server.
                if let simulator {
                    SimulatorApplication.addRoutes(to: router, simulator: simulator, manualClock: manualClock)
                }
            },
            extraRoots: extraRoots)
        // With the simulator's manual clock, the server runs on it too: the whole world moves together.
        if let manualClock { dependencies.now = { manualClock.now() } }
        dependencies.logger = logger
        let gate = StartupGate()
        dependencies.startupGate = gate
        dependencies.metricsRegistry = ServeCommand.metrics
        let appleBase = simulator == nil ? nil : "http://127.0.0.1:\(configuration.port)"
        let finalConfiguration = configuration
        let router: Router<BasicRequestContext>
        let workers: [any Service]
        do {
            (router, workers) = try await StoreKeeperApplication.build(
                configuration: configuration, dependencies: dependencies, appleBaseURL: appleBase)
        } catch {
            try? await httpClient.shutdown()
            try? await store.close()
            throw error
        }
        let application = Application(
            router: router, server: .storeKeeper(configuration.limits),
            configuration: .init(
                address: .hostname(configuration.hostname, port: configuration.port), serverName: "StoreKeeper"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? finalConfiguration.port
                gate.open()
                if let simulator {
                    await ServeCommand.pointDemoNotifications(simulator, port: port)
                }
                await onRunning(port)
            },
            logger: logger)
        var services: [any Service] = [application] + workers
        if let simulator {
            services.append(NotificationDeliveryService(simulator: simulator, httpClient: httpClient))
            if let worldFile {
                services.append(SimulatorWorldKeeper(simulator: simulator, file: worldFile, logger: logger))
            }
        }
        return ServerAssembly(
            services: services, simulator: simulator, manualClock: manualClock, configuration: configuration,
            httpClient: httpClient, store: store)
    }

    /// Closes the outbound HTTP client and the store (after the services stopped).
    package func close() async {
        try? await httpClient.shutdown()
        try? await store.close()
    }
}
