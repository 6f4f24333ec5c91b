import AsyncHTTPClient
import Hummingbird
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
        var configuration = configuration
        configuration.verifyReceiptProductionURL = simulatorBase + "/verifyReceipt"
        configuration.verifyReceiptSandboxURL = simulatorBase + "/sandbox/verifyReceipt"
        configuration.serverAPIBaseURL = simulatorBase
        let dependencies = StoreKeeperApplication.Dependencies(
            store: store, httpClient: HTTPClient.shared,
            extraRoots: [SimulatorHarness.sharedPKI.signedDataRootDER, SimulatorHarness.sharedPKI.receiptRootDER],
            now: { harness.clock.now() })
        return try await StoreKeeperApplication.buildRouter(
            configuration: configuration, dependencies: dependencies, appleBaseURL: nil)
    }
}
