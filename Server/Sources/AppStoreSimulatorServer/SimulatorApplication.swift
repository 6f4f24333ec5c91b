public import AppStoreSimulator
public import Hummingbird
public import Logging

/// Builds the simulator's HTTP application: Apple's endpoints plus the control API, on Hummingbird.
public enum SimulatorApplication {
    /// Makes the router.
    /// - Parameters:
    ///   - simulator: The simulator.
    ///   - manualClock: The manual clock, when the simulator runs on one (enables `clock/advance`).
    /// - Returns: The router.
    public static func buildRouter(simulator: AppStoreSimulator, manualClock: ManualClock?) -> Router<
        BasicRequestContext
    > {
        let router = Router()
        router.get("health") { _, _ in "ok" }
        addRoutes(to: router, simulator: simulator, manualClock: manualClock)
        return router
    }

    /// Mounts the simulator's routes (Apple's endpoints and the control API) on an existing router, so another
    /// server — `storekeeper serve` — can carry the simulator in-process.
    public static func addRoutes(
        to router: Router<BasicRequestContext>, simulator: AppStoreSimulator, manualClock: ManualClock?
    ) {
        AppleRoutes(simulator: simulator).addRoutes(to: router)
        ControlRoutes(simulator: simulator, manualClock: manualClock).addRoutes(to: router)
    }

    /// Makes the application.
    /// - Parameters:
    ///   - simulator: The simulator.
    ///   - manualClock: The manual clock, if any.
    ///   - hostname: Where to listen.
    ///   - port: The port (0 picks a free one).
    ///   - logger: Where the server logs.
    ///   - onServerRunning: Called with the bound port once listening.
    /// - Returns: The application (a `Service`).
    public static func build(
        simulator: AppStoreSimulator, manualClock: ManualClock?, hostname: String = "127.0.0.1", port: Int = 8090,
        logger: Logger = Logger(label: "storekeeper.simulator"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(simulator: simulator, manualClock: manualClock),
            configuration: .init(
                address: .hostname(hostname, port: port), serverName: "StoreKeeper App Store Simulator"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
