import AppStoreSimulator
import AppStoreSimulatorServer
import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// Two projects on one StoreKeeper server — app A and app B, each with its own public and secret key — with the
/// simulator (manual clock, its own port) as Apple: the ground for every cross-tenant test.
struct TenantServers: Sendable {
    static let appA = "com.example.tenant-a"
    static let appB = "com.example.tenant-b"
    static let publicA = "pk_tenant_a_public_0123456789abcdefghij"
    static let secretA = "sk_tenant_a_secret_0123456789abcdefghij"
    static let publicB = "pk_tenant_b_public_0123456789abcdefghij"
    static let secretB = "sk_tenant_b_secret_0123456789abcdefghij"
    /// A's secret keys of narrower scopes (``secretA`` has none in the configuration: `admin`).
    static let readA = "sk_tenant_a_read_00000123456789abcdefghij"
    static let supportA = "sk_tenant_a_support_0123456789abcdefghij"
    /// A's secret key before a rotation: stored by an earlier start, no longer configured.
    static let retiredSecretA = "sk_tenant_a_retired_0123456789abcdefghi"
    static let projectA = try! ProjectScope(appA)
    static let projectB = try! ProjectScope(appB)

    let h: SimulatorHarness
    let client: ServerEndToEndTests.Client
    /// The server's port.
    var port: Int { Int(client.base.split(separator: ":").last ?? "") ?? 0 }
    let store: SQLStore

    /// Runs `body` with both apps configured on a fresh store of `backend`.
    /// - Parameters:
    ///   - backend: `sqlite` or `postgres`.
    ///   - receiptValidation: `apple` (the simulator's verifyReceipt) or `local`.
    ///   - maximumBodyBytes: The server's body limit.
    static func with(
        _ backend: String, receiptValidation: String = "apple", maximumBodyBytes: Int = 1 << 20,
        limits: ConnectionLimits = ConnectionLimits(), projects: [ServerConfiguration.Project] = [],
        _ body: @Sendable (TenantServers) async throws -> Void
    ) async throws {
        // The server's own announcer: every write of the matrix also writes the outbox.
        let announcer = WebhookAnnouncer(engine: SubscriptionEngine(configuration: ServerConfiguration.demoEngine))
        guard let store = try await TestDatabases.makeStore(backend, announcer: announcer) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        do {
            try await run(
                store, receiptValidation: receiptValidation, maximumBodyBytes: maximumBodyBytes, limits: limits,
                projects: projects, body)
        } catch {
            try await store.close()
            throw error
        }
        try await store.close()
    }

    static func run(
        _ store: SQLStore, receiptValidation: String, maximumBodyBytes: Int, limits: ConnectionLimits,
        projects: [ServerConfiguration.Project],
        _ body: @Sendable (TenantServers) async throws -> Void
    ) async throws {
        let h = try await SimulatorHarness()
        for bundleID in [appA, appB] { try await h.simulator.createApp(SimulatedApp.demo(bundleID: bundleID)) }
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { simulatorBase in
            var configuration = ServerConfiguration()
            configuration.apps = [appA, appB].map { bundleID in
                var app = ServerConfiguration.App(bundleID: bundleID)
                app.sharedSecret = h.sharedSecret
                return app
            }
            configuration.apiKeys = [
                .init(key: publicA, kind: .public, bundleID: appA), .init(key: secretA, kind: .secret, bundleID: appA),
                .init(key: publicB, kind: .public, bundleID: appB), .init(key: secretB, kind: .secret, bundleID: appB),
                .init(key: readA, kind: .secret, bundleID: appA, scope: .read),
                .init(key: supportA, kind: .secret, bundleID: appA, scope: .support),
            ]
            configuration.engine = ServerConfiguration.demoEngine
            configuration.projects = projects
            configuration.apple.receiptValidation = try .named(receiptValidation, field: "receiptValidation")
            configuration.maximumBodyBytes = maximumBodyBytes
            // An earlier start knew A's retired key; this start's configuration no longer has it.
            try await store.keys.replaceAPIKeys([
                HexDigest.sha256(retiredSecretA): APIKeyRecord(kind: .secret, bundleID: appA)
            ])
            let router = try await SimulatorAsApple.router(
                configuration, store: store, harness: h, simulatorBase: simulatorBase)
            try await LiveServer.with({ running in
                Application(
                    router: router, server: .storeKeeper(limits),
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: quietLogger)
            }) { base in
                try await body(TenantServers(h: h, client: ServerEndToEndTests.Client(base: base), store: store))
            }
        }
    }

    /// Buys `product` in `bundleID`'s simulated store as `customer`: the receipt and the signed transaction.
    func buy(
        _ bundleID: String, customer: String, product: String = "premium.monthly", options: PurchaseOptions = .init()
    )
        async throws -> (receipt: String, token: String, originalTransactionID: String)
    {
        let bought = try await h.simulator.purchase(
            bundleID: bundleID, productID: product, customerID: customer, options: options)
        let receipt = try await h.simulator.receipt(bundleID: bundleID, customerID: customer)
        let token = try #require(
            try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: bundleID)
                .signedTransactionInfo)
        return (receipt, token, bought.originalTransactionID)
    }

    /// Every stored row of project B (the victim), in a stable order.
    func victimDump() async throws -> String {
        try await store.dump().split(separator: "\n").filter { $0.hasPrefix("#") || $0.contains(Self.appB) }.joined(
            separator: "\n")
    }

    /// B's own answer for one of its users, as B's public key reads it (request dates left out).
    func victimView(_ user: String) async throws -> NSDictionary? {
        let (status, body) = try await client.call(.GET, "/v1/subscribers/\(user)", key: Self.publicB)
        #expect(status == 200)
        return body["subscriber"] as? NSDictionary
    }
}
