import AsyncHTTPClient
import Hummingbird
import ServiceLifecycle
import StoreKeeperServer
import StoreKeeperStorage
import TestSupport

/// StoreKeeper's router with the test simulator standing in for Apple: Apple's URLs point at the simulator, its
/// roots are trusted, and the server's clock is the simulator's.
enum SimulatorAsApple {
    /// The router for `configuration` (apps, keys, engine) on `store`, with the simulator at `simulatorBase`.
    static func router(
        _ configuration: ServerConfiguration, store: SQLStore, harness: SimulatorHarness, simulatorBase: String
    ) async throws -> Router<BasicRequestContext> {
        try await build(configuration, store: store, harness: harness, simulatorBase: simulatorBase).router
    }

    /// The router and the background services (webhook delivery, clock announcements, reconciliation, polling)
    /// for `configuration` on `store`, with the simulator at `simulatorBase` as Apple and its clock as the server's.
    static func build(
        _ configuration: ServerConfiguration, store: SQLStore, harness: SimulatorHarness, simulatorBase: String
    ) async throws -> (router: Router<BasicRequestContext>, services: [any Service]) {
        var configuration = configuration
        configuration.apple.verifyReceiptProductionURL = simulatorBase + "/verifyReceipt"
        configuration.apple.verifyReceiptSandboxURL = simulatorBase + "/sandbox/verifyReceipt"
        configuration.apple.serverAPIBaseURL = simulatorBase
        let dependencies = StoreKeeperApplication.Dependencies(
            store: store, httpClient: HTTPClient.shared,
            extraRoots: [SimulatorHarness.sharedPKI.signedDataRootDER, SimulatorHarness.sharedPKI.receiptRootDER],
            now: { harness.clock.now() })
        return try await StoreKeeperApplication.build(
            configuration: configuration, dependencies: dependencies, appleBaseURL: nil)
    }
}
