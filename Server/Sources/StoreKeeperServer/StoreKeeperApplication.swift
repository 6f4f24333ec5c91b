import AppStoreClient
public import AsyncHTTPClient
public import Foundation
public import Hummingbird
public import Logging
public import Prometheus
public import ServiceLifecycle
public import StoreKeeperStorage
import StoreKeeperWire
import SubscriptionEngine

/// Builds the StoreKeeper HTTP application.
public enum StoreKeeperApplication {
    /// What the builder needs beyond configuration.
    public struct Dependencies: Sendable {
        /// The store.
        public var store: any Store
        /// The HTTP client for Apple.
        public var httpClient: HTTPClient
        /// Routes the composition root mounts beside the API (the in-process simulator's, when it stands in for
        /// Apple): this library imports no simulator.
        public var extraRoutes: @Sendable (Router<BasicRequestContext>) -> Void
        /// Extra trusted roots (the simulator's).
        public var extraRoots: [[UInt8]] = []
        /// The server's clock.
        public var now: @Sendable () -> Date = { Date() }
        /// Opened once the HTTP server listens; the background services start after it (`nil`: at once).
        public var startupGate: StartupGate?
        /// Where swift-metrics sends the server's measurements, shown at `/metrics` (`nil`: no `/metrics`).
        public var metricsRegistry: PrometheusCollectorRegistry?
        /// Where the server reports failures that do not fail a request (never with secrets). Default: a
        /// `storekeeper` logger at warning level.
        public var logger: Logger = {
            var logger = Logger(label: "storekeeper")
            logger.logLevel = .warning
            return logger
        }()

        /// Makes dependencies.
        public init(
            store: any Store, httpClient: HTTPClient,
            extraRoutes: @escaping @Sendable (Router<BasicRequestContext>) -> Void = { _ in },
            extraRoots: [[UInt8]] = [], now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.store = store
            self.httpClient = httpClient
            self.extraRoutes = extraRoutes
            self.extraRoots = extraRoots
            self.now = now
        }
    }

    /// Makes the router: `/v1`, `/openapi.json`, `/health`, `/ready`, `/metrics` (with a registry), and whatever
    /// `dependencies.extraRoutes` mounts.
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - dependencies: Store, HTTP client, extra routes, trusted roots, clock.
    ///   - appleBaseURL: Where Apple is (for the in-process simulator: this server).
    /// - Returns: The router.
    public static func buildRouter(
        configuration: ServerConfiguration, dependencies: Dependencies, appleBaseURL: String?
    ) async throws -> Router<BasicRequestContext> {
        try await build(configuration: configuration, dependencies: dependencies, appleBaseURL: appleBaseURL).router
    }

    /// Makes the router and the services that work beside it: webhook delivery, the clock's announcements,
    /// notification reconciliation and status polling (each runs in every replica; they share the work through the database).
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - dependencies: Store, HTTP client, extra routes, trusted roots, clock.
    ///   - appleBaseURL: Where Apple is (for the in-process simulator: this server).
    /// - Returns: The router, and the services to run with it.
    public static func build(
        configuration: ServerConfiguration, dependencies: Dependencies, appleBaseURL: String?
    ) async throws -> (router: Router<BasicRequestContext>, services: [any Service]) {
        try configuration.validate()
        // The stored keys become exactly the configured ones: a key removed from the file stops working here.
        try await dependencies.store.keys.replaceAPIKeys(
            Dictionary(
                configuration.apiKeys.map {
                    (Authenticator.hash($0.key), $0.record)
                },
                uniquingKeysWith: { _, last in last }))
        try await dependencies.store.webhooks.configureWebhookEndpoints(
            configuration.configuredWebhooks(now: dependencies.now()))
        let projects = try configuration.projectScopes()
        let answerSigner = try AnswerSigner(privateKeys: configuration.answerSigningKeys)
        var apps: [String: AppRuntime] = [:]
        for app in configuration.apps {
            apps[app.bundleID] = try AppRuntime(
                app, project: projects[app.bundleID] ?? ProjectScope(app.bundleID), extraRoots: dependencies.extraRoots)
        }
        var clientConfiguration = AppStoreClient.Configuration()
        clientConfiguration.totalDeadline = .milliseconds(Int64(configuration.apple.deadlineSeconds * 1000))
        if let base = appleBaseURL {
            clientConfiguration.verifyReceiptProductionURL = base + "/verifyReceipt"
            clientConfiguration.verifyReceiptSandboxURL = base + "/sandbox/verifyReceipt"
            clientConfiguration.serverAPIBaseURL = base
            clientConfiguration.serverAPISandboxBaseURL = base
        }
        if let url = configuration.apple.verifyReceiptProductionURL {
            clientConfiguration.verifyReceiptProductionURL = url
        }
        if let url = configuration.apple.verifyReceiptSandboxURL { clientConfiguration.verifyReceiptSandboxURL = url }
        if let url = configuration.apple.serverAPIBaseURL {
            clientConfiguration.serverAPIBaseURL = url
            clientConfiguration.serverAPISandboxBaseURL = url
        }
        if let url = configuration.apple.serverAPISandboxBaseURL { clientConfiguration.serverAPISandboxBaseURL = url }
        let store = dependencies.store
        let budget = CacheBudget(megabytes: configuration.cacheMegabytes)
        let directory = AppDirectory(apps)
        var subscriberService = SubscriberService(
            store: store, apps: directory, engine: SubscriptionEngine(configuration: configuration.engine),
            answerCacheBudget: budget.answers, now: dependencies.now)
        subscriberService.attributes = AttributeCache(store: store.attributes, changes: store.changes)
        let subscribers = subscriberService
        let service = IntakeService(
            store: store, attributes: store.attributes, polls: store.polls, apps: directory,
            policy: configuration.transferPolicy,
            client: AppStoreClient(configuration: clientConfiguration, httpClient: dependencies.httpClient),
            localReceipts: configuration.apple.receiptValidation == .local, subscribers: subscribers,
            now: dependencies.now, logger: dependencies.logger)
        let customerList = SubscriberList(
            store: store, attributes: store.attributes, apps: directory, engine: subscribers.engine,
            now: dependencies.now)
        var metricService = MetricService(
            store: store, retention: store.retention, apps: directory, reporting: configuration.metrics.reporting,
            now: dependencies.now)
        metricService.proceeds = configuration.metrics.proceeds
        let metrics = metricService
        // One bound on guests (customers without evidence) for app-set attributes and experiment enrolments.
        let guests = GuestBudget(maximum: configuration.maximumAttributeGuests)
        let offerings = OfferingService(
            settings: store.settings, experiments: store.experiments, attributes: store.attributes, store: store,
            apps: directory,
            catalog: configuration.engine.productIDs,
            subscribers: subscribers,
            guests: guests, now: dependencies.now)
        let experiments = ExperimentService(
            store: store, experiments: store.experiments, settings: store.settings, offerings: offerings,
            reporting: configuration.metrics.reporting,
            proceeds: configuration.metrics.proceeds, now: dependencies.now)
        let search = CustomerSearch(search: store.search, store: store, apps: directory, client: service.client)
        let audit = AuditLog(store: store.audit, apps: directory)
        let grants = SupportGrants(
            store: store, apps: directory, engine: subscribers.engine, policy: configuration.transferPolicy,
            now: dependencies.now)
        let purchases = PurchaseSupport(intake: service)
        let extensions = SupportExtensions(purchases: purchases)
        let customerData = CustomerData(
            store: store, attributes: store.attributes, apps: directory, engine: subscribers.engine,
            now: dependencies.now)
        let router = Router()
        // Outermost, so it signs the bytes every other middleware settled on, error bodies included.
        router.add(
            middleware: AnswerSigningMiddleware(
                signer: answerSigner, now: dependencies.now, maximumRequestBytes: configuration.maximumBodyBytes))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: MetricsMiddleware<BasicRequestContext>())
        router.add(middleware: ErrorBodyMiddleware())
        router.get("health") { _, _ in "ok" }
        let readiness = Readiness(store: dependencies.store, gate: dependencies.startupGate)
        router.get("ready") { _, _ in try await readiness.response() }
        if let registry = dependencies.metricsRegistry {
            let token = configuration.metrics.token.map { Array("Bearer \($0)".utf8) }
            router.get("metrics") { request, _ in
                if let token {
                    let sent = Array((request.headers[.authorization] ?? "").utf8)
                    guard ConstantTime.equal(sent, token)
                    else {
                        throw ServiceError(
                            .unauthenticated, .invalidMetricsToken, "send Authorization: Bearer <metricsToken>")
                    }
                }
                var usage = store.cacheUsage
                usage["answers"] = subscribers.documents.usage
                ServerMetrics.caches(usage)
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
            }
        }
        router.get("openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
        }
        let authenticator = Authenticator(store: dependencies.store.keys)
        let signer = OfferSigner(apps: directory, subscribers: subscribers, now: dependencies.now)
        var retention = RetentionService(
            store: store.retention, evidence: store, settings: store.settings, apps: directory,
            catalog: configuration.engine.productIDs,
            subscribers: subscribers,
            signer: signer, now: dependencies.now)
        retention.messages = RetentionMessageCheck(client: service.client)
        for (bundleID, rules) in configuration.retentionRules.sorted(by: { $0.key < $1.key }) {
            _ = try await retention.replaceRules(rules, bundleID: bundleID, askApple: false)
        }
        var webhooks = WebhookService(
            webhooks: store.webhooks, store: store, apps: directory, now: dependencies.now)
        webhooks.testsPerMinute = configuration.webhookDelivery.testsPerMinute
        APIRoutes(
            features: [
                IntakeRoutes(service: service),
                SubscriberRoutes(service: subscribers, list: customerList),
                OfferRoutes(signer: signer),
                WebhookRoutes(webhooks: webhooks), MetricRoutes(metrics: metrics),
                EventFeedRoutes(feed: EventFeed(store: store, apps: directory)),
                OfferingRoutes(offerings: offerings),
                AttributeRoutes(
                    store: store.attributes, apps: directory, now: dependencies.now,
                    guests: guests),
                ExperimentRoutes(experiments: experiments), RetentionRoutes(retention: retention),
                SupportRoutes(
                    search: search, grants: grants, extensions: extensions,
                    tokens: SupportAppAccountTokens(purchases: purchases),
                    massExtensions: MassExtensions(store: store.massExtensions, intake: service), data: customerData),
                AuditRoutes(log: audit),
            ],
            authenticator: authenticator,
            maximumBodyBytes: configuration.maximumBodyBytes, apps: directory, now: dependencies.now
        ).addRoutes(to: router)
        DashboardRoutes(
            subscribers: subscribers, list: customerList, metrics: metrics, refusals: service.refusals,
            webhooks: webhooks, offerings: offerings, experiments: experiments, retention: retention,
            search: search, audit: audit, grants: grants, purchases: purchases, extensions: extensions,
            data: customerData, authenticator: authenticator,
            sessions: DashboardSessions(now: dependencies.now)
        ).addRoutes(to: router)
        dependencies.extraRoutes(router)
        var dispatch = WebhookDispatcher.Options()
        dispatch.schedule = WebhookRetrySchedule(delays: configuration.webhookDelivery.retrySeconds)
        dispatch.lease = configuration.leaseSeconds
        dispatch.requestTimeout = .milliseconds(Int64(configuration.webhookRequestTimeoutSeconds * 1000))
        let services: [any Service] = [
            GatedService(
                gate: dependencies.startupGate,
                services: [
                    WebhookDispatcher(
                        store: dependencies.store.webhooks, options: dispatch,
                        now: dependencies.now, logger: dependencies.logger),
                    ClockAnnouncer(store: dependencies.store, now: dependencies.now, logger: dependencies.logger),
                    NotificationReconciler(
                        service: service, interval: .milliseconds(Int64(configuration.polling.reconcileSeconds * 1000))),
                    SubscriptionPoller(
                        service: service, schedule: configuration.polling.schedule,
                        requestsPerSecond: configuration.polling.requestsPerSecond, lease: configuration.leaseSeconds),
                    MetricRollupBuilder(
                        store: dependencies.store, projects: metrics.apps.projects, logger: dependencies.logger),
                    RollupSweep(store: dependencies.store, logger: dependencies.logger),
                    RollupAuditor(
                        store: dependencies.store, projects: metrics.apps.projects, logger: dependencies.logger),
                ]
                    + (configuration.rawEvidenceRetentionDays > 0
                        ? [
                            RawEvidenceRetention(
                                store: dependencies.store, days: configuration.rawEvidenceRetentionDays,
                                now: dependencies.now, logger: dependencies.logger)
                        ] : []))
        ]
        return (router, services)
    }
}
