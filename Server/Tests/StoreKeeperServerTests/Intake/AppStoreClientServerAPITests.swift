import AppStoreClient
import AppStoreModels
import AppStoreSimulator
import AppStoreSimulatorServer
import Crypto
import Foundation
import Hummingbird
import TestSupport
import Testing

/// `AppStoreClient` speaks every App Store Server API endpoint the simulator answers, and finds a sandbox
/// transaction when production does not know it (Apple's advice when the environment is unknown).
@Suite struct AppStoreClientServerAPITests {
    /// The simulator (manual clock) on loopback with an app whose API key the test holds, and a client for it.
    static func withSimulator(
        _ body: @Sendable (SimulatorHarness, AppStoreClient, AppStoreClient.Credentials, String) async throws -> Void
    ) async throws {
        let h = try await SimulatorHarness()
        let key = P256.Signing.PrivateKey()
        var app = SimulatedApp.demo(bundleID: "com.example.client")
        app.apiPublicKeyPEM = key.publicKey.pemRepresentation
        try await h.simulator.createApp(app)
        let bundleID = app.bundleID
        let credentials = AppStoreClient.Credentials(
            issuerID: app.issuerID, keyID: app.apiKeyID, bundleID: app.bundleID, privateKey: key)
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { base in
            var configuration = AppStoreClient.Configuration()
            configuration.serverAPIBaseURL = base
            configuration.serverAPISandboxBaseURL = base
            // A minute per call: the simulator answers in the test process, whose loops stall for seconds while the
            // whole suite starts; these tests specify what is asked where, not how fast.
            configuration.totalDeadline = .seconds(60)
            configuration.timeout = .seconds(60)
            let client = AppStoreClient(configuration: configuration, httpClient: .shared)
            try await body(h, client, credentials, bundleID)
        }
    }

    @Test(
        "every endpoint: info, history v1, refunds, order lookup, extensions, test notifications, consumption, token, app transaction, finish"
    )
    func everyEndpoint() async throws {
        try await Self.withSimulator { h, client, credentials, bundleID in
            let bought = try await h.simulator.purchase(
                bundleID: bundleID, productID: "premium.monthly", customerID: "cli")
            let id = bought.transactionID
            #expect(
                try await client.transactionInfo(transactionID: id, credentials: credentials).signedTransactionInfo
                    != nil)
            #expect(
                try await client.transactionHistoryV1(transactionID: id, revision: nil, credentials: credentials)
                    .signedTransactions?.count == 1)
            #expect(try await client.lookUpOrder(orderID: bought.orderID, credentials: credentials).status == 0)

            var extend = ExtendRenewalDateRequest()
            extend.extendByDays = 3
            extend.extendReasonCode = 1
            extend.requestIdentifier = UUID().uuidString
            #expect(
                try await client.extendRenewalDate(originalTransactionID: id, request: extend, credentials: credentials)
                    .success == true)
            var mass = MassExtendRenewalDateRequest()
            mass.extendByDays = 1
            mass.extendReasonCode = 1
            mass.requestIdentifier = UUID().uuidString.lowercased()
            mass.productId = "premium.monthly"
            let started = try await client.extendRenewalDatesForAll(mass, credentials: credentials)
            #expect(started.requestIdentifier == mass.requestIdentifier)
            let status = try await client.massExtensionStatus(
                productID: "premium.monthly", requestIdentifier: try #require(mass.requestIdentifier),
                credentials: credentials)
            #expect(status.complete == true && status.succeededCount == 1)

            let test = try await client.requestTestNotification(credentials: credentials)
            let token = try #require(test.testNotificationToken)
            #expect(
                try await client.testNotificationStatus(token: token, credentials: credentials).signedPayload != nil)

            try await h.simulator.requestConsumption(transactionID: id)
            let consumption = Data(
                #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)
            try await client.sendConsumptionInformation(transactionID: id, body: consumption, credentials: credentials)
            let accountToken = UUID().uuidString
            try await client.setAppAccountToken(
                originalTransactionID: id, token: accountToken, credentials: credentials)
            #expect(await h.simulator.transaction(id)?.appAccountToken == accountToken.lowercased())
            #expect(
                try await client.appTransactionInfo(transactionID: id, credentials: credentials)
                    .signedAppTransactionInfo
                    != nil)
            try await client.finishTransaction(transactionID: id, credentials: credentials)

            _ = try await h.simulator.refund(transactionID: id)
            #expect(
                try await client.refundHistory(transactionID: id, revision: nil, credentials: credentials)
                    .signedTransactions?.count == 1)
            let missing = await #expect(throws: AppStoreClientError.self) {
                try await client.transactionInfo(transactionID: "999", credentials: credentials)
            }
            #expect(missing?.status == 404 && missing?.appleErrorCode == 4_040_010)
        }
    }

    @Test("a transaction production does not know is asked of the sandbox; another error is not")
    func sandboxFallback() async throws {
        try await Self.withSimulator { h, sandboxClient, credentials, bundleID in
            let bought = try await h.simulator.purchase(
                bundleID: bundleID, productID: "premium.monthly", customerID: "sbx")
            let sandbox = sandboxClient.configuration.serverAPIBaseURL
            for (code, expectFound) in [(4_040_010, true), (4_040_005, true), (4_000_006, false)] {
                let production = Router()
                production.get("inApps/v1/transactions/:id") { _, _ -> Response in
                    Response(
                        status: code >= 4_040_000 ? .notFound : .badRequest,
                        body: .init(byteBuffer: .init(string: #"{"errorCode":\#(code),"errorMessage":"no"}"#)))
                }
                try await LiveServer.with(router: production) { productionBase in
                    var configuration = AppStoreClient.Configuration()
                    configuration.serverAPIBaseURL = productionBase
                    configuration.serverAPISandboxBaseURL = sandbox
                    // What is asked where is specified here, not how fast: the whole suite runs in parallel
                    // on two cores.
                    configuration.totalDeadline = .seconds(60)
                    configuration.timeout = .seconds(60)
                    let client = AppStoreClient(configuration: configuration, httpClient: .shared)
                    if expectFound {
                        let info = try await client.transactionInfo(
                            transactionID: bought.transactionID, credentials: credentials)
                        #expect(info.signedTransactionInfo != nil)
                    } else {
                        await #expect(throws: AppStoreClientError.self) {
                            try await client.transactionInfo(
                                transactionID: bought.transactionID, credentials: credentials)
                        }
                    }
                    // Told the environment, the client asks only there.
                    await #expect(throws: AppStoreClientError.self) {
                        try await client.transactionInfo(
                            transactionID: bought.transactionID, credentials: credentials, environment: .production)
                    }
                }
            }
        }
    }
}
