import AppStoreModels
import AppStoreSimulator
import AppStoreSimulatorServer
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// The real server on loopback, on SQLite and on PostgreSQL, with the simulator (on its own port) as Apple.
@Suite struct ServerEndToEndTests {
    static let publicKey = "pk_test_public_0123456789abcdefghijklmnop"
    static let secretKey = "sk_test_secret_0123456789abcdefghijklmnop"
    static let bundleID = "com.example.e2e"
    /// The e2e app's project (an app no project lists is its own, named by its bundle id).
    static let project = try! ProjectScope(bundleID)
    /// A second app, configured for Production only: the simulator's Sandbox evidence is the wrong environment.
    static let productionBundleID = "com.example.e2e.production"
    static let productionKey = "pk_test_production_0123456789abcdefghijk"

    struct Client: Sendable {
        let base: String

        /// For calls given more than the shared client's 90 s read timeout (one write of thousands of purchases
        /// beside the whole suite on two cores): reads may wait five minutes. Never shut down: it lives as long as
        /// the test process.
        static let patient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(timeout: .init(connect: .seconds(30), read: .seconds(300))))

        func call(
            _ method: NIOHTTP1.HTTPMethod, _ path: String, key: String? = ServerEndToEndTests.publicKey,
            body: Data? = nil, timeout: Duration = .seconds(30)
        )
            async throws -> (Int, [String: Any])
        {
            let (status, data, _) = try await exchange(method, path, key: key, body: body, timeout: timeout)
            return (status, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
        }

        /// One call's status, body as sent and `Content-Type`.
        func exchange(
            _ method: NIOHTTP1.HTTPMethod, _ path: String, key: String? = ServerEndToEndTests.publicKey,
            body: Data? = nil, timeout: Duration = .seconds(30)
        ) async throws -> (status: Int, body: Data, contentType: String?) {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let client = timeout > .seconds(60) ? Self.patient : HTTPClient.shared
            let response = try await client.execute(request, timeout: .init(timeout))
            let data = Data(try await response.body.collect(upTo: 32 << 20).readableBytesView)
            return (Int(response.status.code), data, response.headers.first(name: "Content-Type"))
        }

        func json(_ object: [String: Any]) -> Data { try! JSONSerialization.data(withJSONObject: object) }

        /// A customer buys `product` in the simulator and the app posts the signed transaction as `appUserID`
        /// (the customer's name by default); returns the purchase and the post's status.
        @discardableResult
        func buy(
            _ h: SimulatorHarness, _ product: String, customer: String, appUserID: String? = nil,
            options: PurchaseOptions = .init()
        ) async throws -> (transaction: SimulatedTransaction, status: Int) {
            let bought = try await h.simulator.purchase(
                bundleID: ServerEndToEndTests.bundleID, productID: product, customerID: customer, options: options)
            let token = try #require(
                try await h.simulator.transactionInfo(
                    transactionID: bought.transactionID, bundleID: ServerEndToEndTests.bundleID
                ).signedTransactionInfo)
            let (status, _) = try await call(
                .POST, "/v1/transactions",
                body: json(["app_user_id": appUserID ?? customer, "signed_transaction": token]))
            return (bought, status)
        }

        func subscriber(_ id: String) async throws -> [String: Any] {
            let (status, body) = try await call(.GET, "/v1/subscribers/\(id)")
            #expect(status == 200)
            return body["subscriber"] as? [String: Any] ?? [:]
        }

        func subscription(_ id: String) async throws -> [String: Any]? {
            (try await subscriber(id)["subscriptions"] as? [[String: Any]])?.first
        }
    }

    /// The engine the e2e servers answer with, which also folds their stores' history.
    static let engine = SubscriptionEngine(configuration: ServerConfiguration.demoEngine)

    /// Runs `body` with a simulator (manual clock) on one port and StoreKeeper on another (its configuration
    /// the e2e one, as `adjusted` changes it).
    static func withServers(
        _ backend: String, adjusted: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (SimulatorHarness, Client, SQLStore, NotificationDeliveryService) async throws -> Void
    ) async throws {
        // As `serve` opens it: superseded history folded out of the rows.
        guard let store = try await TestDatabases.makeStore(backend, folding: Self.engine) else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        try await withServers(on: [store], adjusted: adjusted) { h, clients, delivery in
            try await body(h, clients[0], store, delivery)
        }
        // Every raw evidence the scenario stored (compacted where it repeats a chain) rebuilds to its digest.
        let check = try await store.checkStoredEvidence()
        #expect(check.mismatched.isEmpty, "stored evidence that does not rebuild: \(check.mismatched)")
        try await store.close()
    }

    /// Two StoreKeeper servers, each with its own store, on one fresh PostgreSQL database (notifications go to
    /// the first), with the simulator as Apple.
    static func withTwoServers(
        _ body: @Sendable (SimulatorHarness, Client, Client, NotificationDeliveryService) async throws -> Void
    )
        async throws
    {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let stores = [
            try await SQLStore.postgres(url: url, folding: Self.engine),
            try await SQLStore.postgres(url: url, folding: Self.engine),
        ]
        try await withServers(on: stores) { h, clients, delivery in try await body(h, clients[0], clients[1], delivery)
        }
        for store in stores { try await store.close() }
    }

    /// The simulator (manual clock) on one port and a StoreKeeper server per store on others; the simulator
    /// sends the e2e app's notifications to the first server.
    static func withServers(
        on stores: [SQLStore], adjusted: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (SimulatorHarness, [Client], NotificationDeliveryService) async throws -> Void
    ) async throws {
        let h = try await SimulatorHarness()
        let key = P256.Signing.PrivateKey()
        var app = SimulatedApp.demo(bundleID: bundleID)
        app.apiPublicKeyPEM = key.publicKey.pemRepresentation
        let registered = app
        try await h.simulator.createApp(registered)
        try await h.simulator.createApp(SimulatedApp.demo(bundleID: productionBundleID))
        try await LiveServer.with({
            SimulatorApplication.build(
                simulator: h.simulator, manualClock: h.clock, port: 0, logger: quietLogger, onServerRunning: $0)
        }) { simulatorBase in
            try await serve(
                stores[...], h, simulatorBase: simulatorBase, app: registered, key: key, adjusted: adjusted, started: []
            ) { clients in
                var pointed = registered
                pointed.notificationURL = clients[0].base + "/v1/notifications/appstore"
                try await h.simulator.createApp(pointed)
                try await body(
                    h, clients, NotificationDeliveryService(simulator: h.simulator, httpClient: HTTPClient.shared))
            }
        }
    }

    /// Starts a server for the first of `stores`, then (inside it) the rest, then runs `body` with them all.
    static func serve(
        _ stores: ArraySlice<SQLStore>, _ h: SimulatorHarness, simulatorBase: String, app: SimulatedApp,
        key: P256.Signing.PrivateKey, adjusted: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        started: [Client], _ body: @Sendable ([Client]) async throws -> Void
    ) async throws {
        guard let store = stores.first else { return try await body(started) }
        let router = try await Self.router(
            store: store, h, simulatorBase: simulatorBase, app: app, key: key, adjusted: adjusted)
        try await LiveServer.with({ running in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: quietLogger)
        }) { base in
            try await serve(
                stores.dropFirst(), h, simulatorBase: simulatorBase, app: app, key: key, adjusted: adjusted,
                started: started + [Client(base: base)], body)
        }
    }

    /// StoreKeeper's router on `store`, with the e2e apps and keys, the simulator at `simulatorBase` as Apple.
    static func router(
        store: SQLStore, _ h: SimulatorHarness, simulatorBase: String, app registered: SimulatedApp,
        key: P256.Signing.PrivateKey, adjusted: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    )
        async throws -> Router<BasicRequestContext>
    {
        var configuration = configuration(app: registered, key: key)
        adjusted(&configuration)
        return try await SimulatorAsApple.router(
            configuration, store: store, harness: h, simulatorBase: simulatorBase)
    }

    /// The e2e configuration: the e2e app with the simulator's API key, a Production-only app, keys and the demo
    /// products.
    static func configuration(app registered: SimulatedApp, key: P256.Signing.PrivateKey) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        var server = ServerConfiguration.App(bundleID: bundleID)
        server.sharedSecret = registered.sharedSecret
        server.issuerID = registered.issuerID
        server.keyID = registered.apiKeyID
        server.privateKeyPEM = key.pemRepresentation
        var production = ServerConfiguration.App(bundleID: productionBundleID)
        production.environment = "Production"
        configuration.apps = [server, production]
        configuration.apiKeys = [
            .init(key: publicKey, kind: .public, bundleID: bundleID),
            .init(key: secretKey, kind: .secret, bundleID: bundleID),
            .init(key: productionKey, kind: .public, bundleID: productionBundleID),
        ]
        configuration.engine = ServerConfiguration.demoEngine
        // Metrics also report money in a currency worth half a dollar (so converted amounts stay exact).
        configuration.metrics.reportingCurrency = "EUR"
        configuration.metrics.exchangeRates = ["USD": 2]
        return configuration
    }

    @Test(
        "RESCIND_CONSENT withholds what the minor bought before it, once, and a later purchase grants again",
        arguments: TestDatabases.backends)
    func rescindConsent(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, store, delivery in
            // A customer StoreKeeper never heard of: verified, acknowledged and only recorded.
            _ = try await h.simulator.purchase(bundleID: Self.bundleID, productID: "coins.100", customerID: "stranger")
            try await h.simulator.rescindConsent(bundleID: Self.bundleID, customerID: "stranger")
            await delivery.deliverDue()
            #expect(await h.simulator.notifications(for: Self.bundleID).last?.attempts.map(\.result) == ["SUCCESS"])

            try await client.buy(h, "premium.monthly", customer: "minor")
            await delivery.deliverDue()
            #expect((try await client.subscriber("minor")["entitlements"] as? [Any])?.count == 1)
            let (attributed, _) = try await client.call(
                .POST, "/v1/subscribers/minor/attributes",
                body: Data(#"{"attributes": {"$email": "minor@example.com"}}"#.utf8))
            #expect(attributed == 200)

            try await h.simulator.rescindConsent(bundleID: Self.bundleID, customerID: "minor")
            await delivery.deliverDue()
            let record = try #require(await h.simulator.notifications(for: Self.bundleID).last)
            #expect(record.notificationType == "RESCIND_CONSENT")
            #expect(record.attempts.map(\.result) == ["SUCCESS"])
            var subscriber = try await client.subscriber("minor")
            #expect((subscriber["entitlements"] as? [Any])?.isEmpty == true)
            let subscription = try #require((subscriber["subscriptions"] as? [[String: Any]])?.first)
            #expect(subscription["status"] as? String == "active", "Apple's state is kept; only access is withheld")
            #expect(subscription["consent_rescinded_at"] is String)
            // The attributes the app set on the minor are gone with the consent.
            #expect(try await client.call(.GET, "/v1/subscribers/minor").1["attributes"] == nil)
            #expect(
                (subscription["explanation"] as? [String])?.contains {
                    $0.hasPrefix("[consent-rescinded-withholds-access]")
                } == true)
            let (_, history) = try await client.call(.GET, "/v1/subscribers/minor/events", key: Self.secretKey)
            let types = (history["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
            #expect(types.filter { $0 == "RESCIND_CONSENT" }.count == 1)

            // Apple redelivers it: applied once.
            let events = try await store.events("minor", in: Self.project, limit: 1000).count
            let (status, _) = try await client.call(
                .POST, "/v1/notifications/appstore", key: nil,
                body: client.json(["signedPayload": record.signedPayload]))
            #expect(status == 200)
            #expect(try await store.events("minor", in: Self.project, limit: 1000).count == events)

            // Consent given again: a purchase after the rescission grants access.
            await h.advance(months: 0.1)
            try await client.buy(h, "lifetime", customer: "minor")
            subscriber = try await client.subscriber("minor")
            let entitlements = subscriber["entitlements"] as? [[String: Any]]
            #expect(entitlements?.map { $0["product_id"] as? String } == ["lifetime"])
        }
    }

    @Test(
        "a commitment plan and a prorated refund reach the API: billing_plan, commitment, revocation_percentage",
        arguments: TestDatabases.backends)
    func commitmentAndProratedRefund(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, _, delivery in
            var options = PurchaseOptions()
            options.billingPlan = "MONTHLY"
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "premium.annual", customerID: "carol", options: options)
            let receipt = try await h.simulator.receipt(bundleID: Self.bundleID, customerID: "carol")
            let (posted, _) = try await client.call(
                .POST, "/v1/receipts", body: client.json(["app_user_id": "carol", "receipt": receipt]))
            #expect(posted == 200)
            await delivery.deliverDue()
            try await h.simulator.setAutoRenew(originalTransactionID: bought.transactionID, enabled: false)
            await h.advance(months: 1.01)
            await delivery.deliverDue()
            let subscription = try #require(try await client.subscription("carol"))
            #expect(subscription["billing_plan"] as? String == "MONTHLY")
            #expect(subscription["will_auto_renew"] as? Bool == true, "period 2 of 12 still renews")
            let commitment = try #require(subscription["commitment"] as? [String: Any])
            #expect(commitment["billing_period"] as? Int == 2 && commitment["total_billing_periods"] as? Int == 12)
            #expect(commitment["will_renew"] as? Bool == false && commitment["price"] as? Int == 89_880)
            #expect(subscription["revocation_percentage"] is NSNull)

            let latest = try #require(await h.simulator.subscription(bought.transactionID)?.latestTransactionID)
            try await h.simulator.refund(transactionID: latest, proratedPercentage: 40_000)
            await delivery.deliverDue()
            let refunded = try #require(try await client.subscription("carol"))
            #expect(refunded["status"] as? String == "revoked")
            #expect(refunded["revocation_type"] as? String == "REFUND_PRORATED")
            #expect(refunded["revocation_percentage"] as? Int == 40_000)
        }
    }

    @Test(
        "receipt → active; DID_RENEW moves expiry; grace keeps access; REFUND revokes; duplicates apply once",
        arguments: TestDatabases.backends)
    func lifecycle(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, store, delivery in
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "premium.monthly", customerID: "alice")
            await delivery.deliverDue()  // SUBSCRIBED arrives before anyone owns the subscription: parked
            let receipt = try await h.simulator.receipt(bundleID: Self.bundleID, customerID: "alice")
            let (posted, document) = try await client.call(
                .POST, "/v1/receipts",
                body: client.json(["app_user_id": "alice", "receipt": receipt, "device_id": "alice-iphone"]))
            #expect(posted == 200)
            let entitlements = (document["subscriber"] as? [String: Any])?["entitlements"] as? [[String: Any]]
            #expect(entitlements?.first?["identifier"] as? String == "pro")
            #expect(try await client.subscription("alice")?["status"] as? String == "active")
            let firstExpiry = try await client.subscription("alice")?["expires_at"] as? String

            await h.advance(months: 1.01)
            await delivery.deliverDue()
            let renewed = try await client.subscription("alice")
            #expect(renewed?["status"] as? String == "active")
            #expect(renewed?["expires_at"] as? String != firstExpiry)

            try await h.simulator.failNextRenewal(originalTransactionID: bought.transactionID)
            await h.advance(months: 1.01)
            await delivery.deliverDue()
            #expect(try await client.subscription("alice")?["status"] as? String == "inGracePeriod")
            #expect((try await client.subscriber("alice")["entitlements"] as? [Any])?.count == 1)

            try await h.simulator.recoverBilling(originalTransactionID: bought.transactionID)
            await delivery.deliverDue()
            let latest = try #require(await h.simulator.subscription(bought.transactionID)?.latestTransactionID)
            try await h.simulator.refund(transactionID: latest, reason: 1)
            await delivery.deliverDue()
            #expect(try await client.subscription("alice")?["status"] as? String == "revoked")
            #expect((try await client.subscriber("alice")["entitlements"] as? [Any])?.isEmpty == true)

            // The same notification again: acknowledged, applied once.
            let last = try #require(await h.simulator.notifications(for: Self.bundleID).last)
            let events = try await store.events("alice", in: ServerEndToEndTests.project, limit: 1000).count
            let before = try await store.dump()
            let (again, answer) = try await client.call(
                .POST, "/v1/notifications/appstore", key: nil, body: client.json(["signedPayload": last.signedPayload]))
            #expect(again == 200 && answer["status"] as? String == "duplicate")
            #expect(try await store.events("alice", in: ServerEndToEndTests.project, limit: 1000).count == events)
            #expect(try await store.dump() == before)
            let (_, history) = try await client.call(.GET, "/v1/subscribers/alice/events", key: Self.secretKey)
            let types = (history["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
            #expect(types.contains("receipt_posted") && types.contains("DID_RENEW") && types.contains("REFUND"))
            #expect(types.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD") && types.contains("SUBSCRIBED/INITIAL_BUY"))
            let receiptEvent = (history["events"] as? [[String: Any]])?.first {
                $0["type"] as? String == "receipt_posted"
            }
            #expect((receiptEvent?["detail"] as? [String: Any])?["device_id"] as? String == "alice-iphone")
        }
    }

    @Test("a remembered answer never outlives its stored row or the clock", arguments: TestDatabases.backends)
    func rememberedAnswers(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, _, delivery in
            _ = try await h.simulator.purchase(bundleID: Self.bundleID, productID: "premium.monthly", customerID: "gus")
            let receipt = try await h.simulator.receipt(bundleID: Self.bundleID, customerID: "gus")
            let (posted, _) = try await client.call(
                .POST, "/v1/receipts", body: client.json(["app_user_id": "gus", "receipt": receipt]))
            #expect(posted == 200)
            let first = try await client.call(.GET, "/v1/subscribers/gus").1
            let second = try await client.call(.GET, "/v1/subscribers/gus").1
            #expect(first["subscriber"] as? NSDictionary == second["subscriber"] as? NSDictionary)
            #expect(
                ((first["subscriber"] as? [String: Any])?["subscriptions"] as? [[String: Any]])?.first?["status"]
                    as? String == "active")
            let firstExpiry = try await client.subscription("gus")?["expires_at"] as? String

            // The clock passes the stored expiry before the renewal is delivered: the answer changes with it.
            await h.advance(months: 1.01)
            #expect(try await client.subscription("gus")?["status"] as? String == "expired")
            #expect((try await client.subscriber("gus")["entitlements"] as? [Any])?.isEmpty == true)
            // The renewal arrives: the stored row changes, and so does the answer.
            await delivery.deliverDue()
            let renewed = try await client.subscription("gus")
            #expect(renewed?["status"] as? String == "active")
            #expect(renewed?["expires_at"] as? String != firstExpiry)
            // request_date is the server's clock on every answer, remembered or not.
            let (_, document) = try await client.call(.GET, "/v1/subscribers/gus")
            #expect(
                document["request_date_ms"] as? Int64
                    == Int64((h.clock.now().timeIntervalSince1970 * 1000).rounded(.down)))
        }
    }

    @Test("two servers on one PostgreSQL database: what one commits, the other's remembered answers reflect")
    func replicas() async throws {
        try await Self.withTwoServers { h, a, b, delivery in
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "premium.monthly", customerID: "hal")
            let receipt = try await h.simulator.receipt(bundleID: Self.bundleID, customerID: "hal")
            let (posted, _) = try await a.call(
                .POST, "/v1/receipts", body: a.json(["app_user_id": "hal", "receipt": receipt]))
            #expect(posted == 200)
            // The second server answers from the database, then remembers the answer.
            #expect(try await b.subscription("hal")?["status"] as? String == "active")
            #expect(try await b.subscription("hal")?["status"] as? String == "active")
            // A refund reaches the first server; the clock does not move, so only the change feed can tell the
            // second server its remembered answer is stale.
            try await h.simulator.refund(transactionID: bought.transactionID, reason: 1)
            await delivery.deliverDue()
            #expect(try await a.subscription("hal")?["status"] as? String == "revoked")
            var seen = try await b.subscription("hal")?["status"] as? String
            for _ in 0..<50 where seen != "revoked" {
                try await Task.sleep(for: .milliseconds(100))
                seen = try await b.subscription("hal")?["status"] as? String
            }
            #expect(seen == "revoked")
        }
    }

    @Test("the same notifications in shuffled order converge to the same state", arguments: TestDatabases.backends)
    func shuffled(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, _, _ in
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "basic.monthly", customerID: "bob")
            await h.advance(months: 2.01)
            try await h.simulator.changePlan(originalTransactionID: bought.transactionID, to: "premium.monthly")
            try await h.simulator.setAutoRenew(originalTransactionID: bought.transactionID, enabled: false)
            let payloads = await h.simulator.notifications(for: Self.bundleID).map(\.signedPayload)
            let token = try #require(
                try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: Self.bundleID)
                    .signedTransactionInfo)
            var generator = SeededGenerator(seed: 3)
            var states: [String] = []
            for (round, user) in ["bob-a", "bob-b", "bob-c"].enumerated() {
                // Each round is a different user owning the same subscription: transfer moves it along.
                let order = round == 0 ? payloads : payloads.shuffled(using: &generator)
                _ = try await client.call(
                    .POST, "/v1/transactions", body: client.json(["app_user_id": user, "signed_transaction": token]))
                for payload in order {
                    let (status, _) = try await client.call(
                        .POST, "/v1/notifications/appstore", key: nil, body: client.json(["signedPayload": payload]))
                    #expect(status == 200)
                }
                var subscriber = try await client.subscriber(user)
                subscriber["app_user_id"] = nil
                subscriber["first_seen"] = nil
                states.append(
                    String(
                        decoding: try JSONSerialization.data(withJSONObject: subscriber, options: [.sortedKeys]),
                        as: UTF8.self))
            }
            #expect(states[0] == states[1] && states[1] == states[2])
            #expect(states[0].contains("\"premium.monthly\""))
        }
    }

    @Test(
        "alias merges identities; a second user's restore transfers the subscription with an audit trail",
        arguments: TestDatabases.backends)
    func aliasAndTransfer(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, _, _ in
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "premium.monthly", customerID: "carol")
            let token = try #require(
                try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: Self.bundleID)
                    .signedTransactionInfo)
            // The SDK's anonymous id bought first; logging in merges it into the account with the public key.
            let anonymous = "$anonymous:" + UUID().uuidString.lowercased()
            _ = try await client.call(
                .POST, "/v1/transactions", body: client.json(["app_user_id": anonymous, "signed_transaction": token]))
            let (aliased, merged) = try await client.call(
                .POST, "/v1/subscribers/\(anonymous)/alias", body: client.json(["new_app_user_id": "carol"]))
            #expect(aliased == 200)
            #expect(((merged["subscriber"] as? [String: Any])?["aliases"] as? [String]) == [anonymous])
            #expect(try await client.subscription("carol")?["status"] as? String == "active")
            _ = try await client.call(
                .POST, "/v1/transactions", body: client.json(["app_user_id": "dave", "signed_transaction": token]))
            #expect(try await client.subscription("dave")?["status"] as? String == "active")
            #expect(try await client.subscription("carol") == nil)
            let (_, history) = try await client.call(.GET, "/v1/subscribers/carol/events", key: Self.secretKey)
            let out = (history["events"] as? [[String: Any]])?.first {
                $0["type"] as? String == "subscription_transferred_out"
            }
            #expect((out?["detail"] as? [String: String])?["to"] == "dave")
        }
    }

    @Test("bad input gets its 4xx and changes nothing stored", arguments: TestDatabases.backends)
    func badInput(_ backend: String) async throws {
        try await Self.withServers(backend) { h, client, store, _ in
            let bought = try await h.simulator.purchase(
                bundleID: Self.bundleID, productID: "premium.monthly", customerID: "erin")
            let token = try #require(
                try await h.simulator.transactionInfo(transactionID: bought.transactionID, bundleID: Self.bundleID)
                    .signedTransactionInfo)
            _ = try await client.call(
                .POST, "/v1/transactions", body: client.json(["app_user_id": "erin", "signed_transaction": token]))
            let sandboxOnly = try await h.simulator.purchase(
                bundleID: Self.productionBundleID, productID: "premium.monthly", customerID: "erin")
            let sandboxToken = try #require(
                try await h.simulator.transactionInfo(
                    transactionID: sandboxOnly.transactionID, bundleID: Self.productionBundleID
                )
                .signedTransactionInfo)
            let receipt = try await h.simulator.receipt(bundleID: Self.bundleID, customerID: "erin")
            let before = try await store.dump()
            let foreign = try Fixtures.text("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")
            let cases: [(String, NIOHTTP1.HTTPMethod, String, String?, Data, Int)] = [
                (
                    "invalid base64", .POST, "/v1/receipts", Self.publicKey,
                    client.json(["app_user_id": "erin", "receipt": "%%%not base64"]), 400
                ),
                ("non-JSON", .POST, "/v1/receipts", Self.publicKey, Data("hello".utf8), 400),
                ("10 MB body", .POST, "/v1/receipts", Self.publicKey, Data(repeating: 0x41, count: 10 << 20), 413),
                (
                    "forged JWS", .POST, "/v1/transactions", Self.publicKey,
                    client.json(["app_user_id": "erin", "signed_transaction": JWSTamper.flippedSignature(token)]), 422
                ),
                (
                    "look-alike JWS", .POST, "/v1/transactions", Self.publicKey,
                    client.json(["app_user_id": "erin", "signed_transaction": try JWSTamper.lookAlikeChain(token)]), 422
                ),
                (
                    "receipt of another app", .POST, "/v1/receipts", Self.publicKey,
                    client.json(["app_user_id": "erin", "receipt": foreign]), 422
                ),
                (
                    "10,000-character user id", .POST, "/v1/transactions", Self.publicKey,
                    client.json(["app_user_id": String(repeating: "u", count: 10_000), "signed_transaction": token]),
                    400
                ),
                ("missing field", .POST, "/v1/transactions", Self.publicKey, client.json(["app_user_id": "erin"]), 400),
                (
                    "device id that is not a string", .POST, "/v1/receipts", Self.publicKey,
                    client.json(["app_user_id": "erin", "receipt": receipt, "device_id": 7]), 400
                ),
                (
                    "10,000-character device id", .POST, "/v1/receipts", Self.publicKey,
                    client.json([
                        "app_user_id": "erin", "receipt": receipt, "device_id": String(repeating: "d", count: 10_000),
                    ]), 400
                ),
                (
                    "unknown field", .POST, "/v1/transactions", Self.publicKey,
                    client.json(["app_user_id": "erin", "signed_transaction": token, "app_user_Id": "mallory"]), 400
                ),
                (
                    "Sandbox evidence for a Production-only app", .POST, "/v1/transactions", Self.productionKey,
                    client.json(["app_user_id": "erin", "signed_transaction": sandboxToken]), 422
                ),
                (
                    "V1 with an unknown notification type", .POST, "/v1/notifications/appstore", nil,
                    client.json([
                        "notification_type": "FREE_MONEY", "password": "demo-shared-secret", "bid": Self.bundleID,
                    ]), 422
                ),
                ("no key", .GET, "/v1/subscribers/erin", nil, Data(), 401),
                ("public key on a secret endpoint", .GET, "/v1/subscribers/erin/events", Self.publicKey, Data(), 403),
                (
                    "V1 with the wrong shared secret", .POST, "/v1/notifications/appstore", nil,
                    client.json(["notification_type": "DID_RENEW", "password": "wrong", "bid": Self.bundleID]), 401
                ),
                ("notification that is not JSON", .POST, "/v1/notifications/appstore", nil, Data("{".utf8), 400),
                (
                    "forged notification", .POST, "/v1/notifications/appstore", nil,
                    client.json([
                        "signedPayload": JWSTamper.editedPayload(
                            await h.simulator.notifications(for: Self.bundleID)[0].signedPayload)
                    ]), 422
                ),
            ]
            for (name, method, path, key, body, expected) in cases {
                let (status, answer) = try await client.call(method, path, key: key, body: body)
                #expect(status == expected, "\(name): \(answer)")
                #expect((answer["error"] as? [String: Any])?["code"] is String, "\(name): error body \(answer)")
            }
            #expect(try await store.dump() == before)
        }
    }
}
