import AppStoreClient
import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreKeeperServer
import StoreKeeperStorage
import TestSupport
import Testing

/// Calls toward Apple have a total deadline, and an Apple that refuses connections fails fast: a client request
/// never waits on Apple longer than the configured deadline.
@Suite struct AppleDeadlineTests {
    /// An "Apple" that accepts every request and never answers.
    static func withSilentApple<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.post("verifyReceipt") { _, _ -> Response in
            try await Task.sleep(for: .seconds(60))
            return Response(status: .ok)
        }
        return try await LiveServer.with(
            { running in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: quietLogger)
            }, body)
    }

    @Test("verifyReceipt that never answers fails with deadline_exceeded at the deadline, retries and all")
    func silentApple() async throws {
        try await Self.withSilentApple { base in
            var configuration = AppStoreClient.Configuration()
            configuration.verifyReceiptProductionURL = base + "/verifyReceipt"
            configuration.totalDeadline = .seconds(1)
            let httpClient = OutboundHTTPClient.make()
            let started = ContinuousClock.now
            let error = await #expect(throws: AppStoreClientError.self) {
                try await AppStoreClient(configuration: configuration, httpClient: httpClient).verifyReceipt(
                    "AAAA", sharedSecret: nil)
            }
            #expect(error?.code == .deadlineExceeded)
            #expect(ContinuousClock.now - started < .seconds(8))
            try await httpClient.shutdown()
        }
    }

    @Test("a refused connection fails fast with transport, not at the deadline")
    func refused() async throws {
        // Nothing listens on port 1 here: the connection is refused at once.
        var configuration = AppStoreClient.Configuration()
        configuration.verifyReceiptProductionURL = "http://127.0.0.1:1/verifyReceipt"
        configuration.totalDeadline = .seconds(300)
        let httpClient = OutboundHTTPClient.make()
        let started = ContinuousClock.now
        let error = await #expect(throws: AppStoreClientError.self) {
            try await AppStoreClient(configuration: configuration, httpClient: httpClient).verifyReceipt(
                "AAAA", sharedSecret: nil)
        }
        #expect(error?.code == .transport)
        // Far below the deadline (the bound leaves room for a machine running the whole suite on two cores).
        #expect(ContinuousClock.now - started < .seconds(60))
        try await httpClient.shutdown()
    }

    @Test("POST /v1/receipts answers 504 with retry_after when Apple does not answer within appleDeadlineSeconds")
    func serverDeadline() async throws {
        try await Self.withSilentApple { base in
            let store = try await SQLStore.sqlite(path: ":memory:")
            var configuration = ServerConfiguration()
            configuration.apps = [ServerConfiguration.App(bundleID: TenantServers.appA)]
            configuration.apiKeys = [.init(key: TenantServers.publicA, kind: .public, bundleID: TenantServers.appA)]
            configuration.apple.verifyReceiptProductionURL = base + "/verifyReceipt"
            configuration.apple.verifyReceiptSandboxURL = base + "/verifyReceipt"
            configuration.apple.deadlineSeconds = 1
            let httpClient = OutboundHTTPClient.make()
            let router = try await StoreKeeperApplication.buildRouter(
                configuration: configuration, dependencies: .init(store: store, httpClient: httpClient),
                appleBaseURL: nil)
            try await LiveServer.with({ running in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: quietLogger)
            }) { server in
                let client = ServerEndToEndTests.Client(base: server)
                let started = ContinuousClock.now
                let (status, answer) = try await client.call(
                    .POST, "/v1/receipts", key: TenantServers.publicA,
                    body: client.json(["app_user_id": "u", "receipt": "AAAA"]))
                #expect(status == 504)
                let error = answer["error"] as? [String: Any]
                #expect(error?["code"] as? String == "apple_timeout" && error?["retry_after"] as? Int == 30)
                #expect(ContinuousClock.now - started < .seconds(8))
            }
            try await httpClient.shutdown()
            try await store.close()
        }
    }
}
