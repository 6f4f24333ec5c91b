import Crypto
public import Foundation
public import StoreKeeperStorage
public import SubscriptionEngine
public import SubscriptionMetrics

/// Everything `storekeeper serve` needs. Every field has a default; with none given the server runs with
/// SQLite under `./data`, the simulator in-process as Apple, and a demo app.
public struct ServerConfiguration: Sendable, Decodable {
    /// One app StoreKeeper serves.
    public struct App: Sendable, Codable {
        /// The bundle id.
        public var bundleID: String
        /// The app's Apple id (checked against signed data when set).
        public var appAppleID: Int64?
        /// The shared secret (verifyReceipt, V1 notifications). Never logged or returned.
        public var sharedSecret: String?
        /// `Production` or `Sandbox`: the environment StoreKit 2 evidence must carry. `nil` accepts both.
        public var environment: String?
        /// App Store Server API issuer id.
        public var issuerID: String?
        /// App Store Server API key id.
        public var keyID: String?
        /// Path of the .p8 key.
        public var privateKeyPath: String?
        /// The .p8 key itself (PEM), instead of a path.
        public var privateKeyPEM: String?
        /// Promotional offer key id.
        public var offerKeyID: String?
        /// Promotional offer key (PEM).
        public var offerPrivateKeyPEM: String?
        /// Extra trusted root certificates (DER file paths), e.g. the simulator's.
        public var extraRootPaths: [String] = []
        /// Accept Xcode-signed evidence (StoreKit testing in Xcode). Default false.
        ///
        /// Risk: anyone can make an Xcode signing certificate, so with this on anyone holding the app's public key
        /// can post evidence of purchases that never happened. It is held to what Xcode data is: only transactions
        /// and receipts whose environment is `Xcode` (never a notification), and it is refused at startup for an
        /// app whose `environment` is `Production`. Turn it on for a development server only.
        public var allowXcode: Bool?

        /// Makes an app entry.
        public init(bundleID: String) { self.bundleID = bundleID }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case bundleID, appAppleID, sharedSecret, environment, issuerID, keyID, privateKeyPath, privateKeyPEM
            case offerKeyID, offerPrivateKeyPEM, extraRootPaths, allowXcode
        }

        /// Decodes an app entry: `bundleID` is required, everything else optional.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            bundleID = try c.decode(String.self, forKey: .bundleID)
            appAppleID = try c.decodeIfPresent(Int64.self, forKey: .appAppleID)
            sharedSecret = try c.decodeIfPresent(String.self, forKey: .sharedSecret)
            environment = try c.decodeIfPresent(String.self, forKey: .environment)
            issuerID = try c.decodeIfPresent(String.self, forKey: .issuerID)
            keyID = try c.decodeIfPresent(String.self, forKey: .keyID)
            privateKeyPath = try c.decodeIfPresent(String.self, forKey: .privateKeyPath)
            privateKeyPEM = try c.decodeIfPresent(String.self, forKey: .privateKeyPEM)
            offerKeyID = try c.decodeIfPresent(String.self, forKey: .offerKeyID)
            offerPrivateKeyPEM = try c.decodeIfPresent(String.self, forKey: .offerPrivateKeyPEM)
            extraRootPaths = try c.decodeIfPresent([String].self, forKey: .extraRootPaths) ?? []
            allowXcode = try c.decodeIfPresent(Bool.self, forKey: .allowXcode)
        }
    }

    /// An API key as configured (plaintext here; only its hash is stored).
    public struct APIKey: Sendable, Codable {
        /// The key (`pk_…` public SDK key, `sk_…` secret key).
        public var key: String
        /// `public` or `secret`.
        public var kind: APIKeyRecord.Kind
        /// The app it is for.
        public var bundleID: String

        /// Makes a key entry.
        public init(key: String, kind: APIKeyRecord.Kind, bundleID: String) {
            self.key = key
            self.kind = kind
            self.bundleID = bundleID
        }

        /// The keys of an API key entry.
        enum CodingKeys: String, CodingKey, CaseIterable { case key, kind, bundleID }
    }

    /// Apps that share subscribers: one project, one set of customers and entitlements (an iOS and a Mac app).
    /// An app no project lists is a project of its own, named by its bundle id.
    public struct Project: Sendable, Codable {
        /// The project's id: 1–100 characters from `A–Z a–z 0–9 . _ -`.
        public var id: String
        /// The bundle ids of its apps (each configured under `apps`, each in one project only).
        public var apps: [String]

        /// Makes a project.
        public init(id: String, apps: [String]) {
            self.id = id
            self.apps = apps
        }

        /// The keys of a project entry.
        enum CodingKeys: String, CodingKey, CaseIterable { case id, apps }
    }

    /// A webhook endpoint kept in the configuration file rather than added through the API: created at start,
    /// changed when the file changes, removed when it leaves the file. Its id is `cfg_` and a digest of its app's
    /// project and URL, so every replica and every restart names it the same.
    public struct Webhook: Sendable, Codable {
        /// The app whose project's events it receives.
        public var bundleID: String
        /// Where deliveries are posted (absolute http or https).
        public var url: String
        /// The signing secret (at least ``ServerConfiguration/minimumKeyLength`` characters). Never logged.
        public var secret: String
        /// The event types it wants; absent or empty: every type.
        public var eventTypes: [String]?

        /// Makes an entry.
        public init(bundleID: String, url: String, secret: String, eventTypes: [String]? = nil) {
            self.bundleID = bundleID
            self.url = url
            self.secret = secret
            self.eventTypes = eventTypes
        }

        /// The keys of a webhook entry.
        enum CodingKeys: String, CodingKey, CaseIterable { case bundleID, url, secret, eventTypes }
    }

    /// Address to listen on. Default 127.0.0.1.
    public var hostname = "127.0.0.1"
    /// Port. Default 8080.
    public var port = 8080
    /// Folder for the SQLite file and the simulator's PKI. Default `data`.
    public var dataDirectory = "data"
    /// `postgres://…` to use PostgreSQL instead of SQLite (also `DATABASE_URL`). Default none.
    public var databaseURL: String?
    /// The apps. Default: the demo app, when the simulator is on.
    public var apps: [App] = []
    /// Projects grouping apps. Default none: every app is its own project.
    public var projects: [Project] = []
    /// API keys. Default: demo keys, when the simulator is on. Each belongs to its app's project and reaches only
    /// that project's subscribers; a configured key has at least ``minimumKeyLength`` characters.
    public var apiKeys: [APIKey] = []
    /// When set, `GET /metrics` answers only requests with `Authorization: Bearer <metricsToken>` (at least
    /// ``minimumKeyLength`` characters; never logged). Default none: `/metrics` is open, for a server that listens on
    /// loopback or whose proxy does not forward it (docs/production.md, Security).
    public var metricsToken: String?
    /// Webhook endpoints kept in this file (besides those added through the API). Default none.
    public var webhooks: [Webhook] = []
    /// Products, entitlements, groups for the engine.
    public var engine = EngineConfiguration()
    /// When one original transaction arrives for a second user. Default `transfer`.
    public var transferPolicy = TransferPolicy.transfer
    /// `apple` (verifyReceipt) or `local` receipt validation. Default `apple`.
    public var receiptValidation = "apple"
    /// Largest request body in bytes. Default 1 MiB.
    public var maximumBodyBytes = 1 << 20
    /// Connection limits: idle, header and body timeouts, most open connections (see ``ConnectionLimits``).
    public var limits = ConnectionLimits()
    /// The most seconds one client request may wait for Apple in all (verifyReceipt's retries and sandbox
    /// fallback included); past it the request answers 504 with a `retry_after`. Default 10.
    public var appleDeadlineSeconds: Double = 10
    /// Run the App Store simulator in-process and use it as Apple. Default true when no apps are configured.
    public var simulator: Bool?
    /// The memory the caches may use together, in MiB (answers, decoded evidence, encoded observations; each
    /// forgets its least recently used entries past its share). Default 256; 0 keeps nothing (every read from
    /// the database: for measuring, or a machine with no memory to spare).
    public var cacheMegabytes = 256
    /// The in-process simulator's environment: `Sandbox` (default) or `Production` (production-shaped evidence:
    /// receipts of type `Production`, verifyReceipt answering at the production URL).
    public var simulatorEnvironment = "Sandbox"
    /// The in-process simulator's clock: `system` (default; real time, periods accelerated by the rate) or
    /// `manual` (moved only by `POST /simulator/v1/clock/advance`; the server runs on it too, so engine, workers,
    /// schedules and webhook retries move with it).
    public var simulatorClock = "system"
    /// The in-process simulator's rate, how long a sandbox month lasts: `3m`, `5m` (default), `15m`, `30m`, `1h`
    /// or `real`.
    public var simulatorRate = "5m"
    /// The rates the simulator knows.
    public static let simulatorRates = ["3m", "5m", "15m", "30m", "1h", "real"]
    /// How long a failed webhook delivery waits before each next attempt, in seconds; after the last, the
    /// delivery is `failed` (redeliverable). Each wait varies by ±20 %. Default about three days in ten attempts.
    public var webhookRetrySeconds: [Double] = WebhookRetrySchedule.standard.delays
    /// How long, in seconds, one delivery may wait for its receiver's answer (at most half of `leaseSeconds`, so a
    /// delivery is never sent twice while its lease holds). Default 10.
    public var webhookTimeoutSeconds: Double = 10
    /// The wait for a receiver's answer the dispatcher uses: `webhookTimeoutSeconds`, but at most half of
    /// `leaseSeconds` (the one place that rule is decided).
    public var webhookRequestTimeoutSeconds: Double { min(webhookTimeoutSeconds, leaseSeconds / 2) }
    /// The most `test` events one endpoint may be sent through `POST /v1/webhooks/{id}/test` in a minute (counted
    /// in the database, so across replicas); past it the request answers 429 `rate_limited`. Default 10.
    public var webhookTestsPerMinute = 10
    /// How often, in seconds, each app with API credentials reads Apple's notification history for
    /// notifications that never arrived and applies them. Default 3600.
    public var reconcileSeconds: Double = 3_600
    /// When subscribers are asked about at Apple (App Store Server API, for apps with credentials): this many
    /// seconds after a period ends (`pollDelaySeconds`, default 300), every `pollRetrySeconds` while billing fails
    /// (default 14400), and every `pollSweepSeconds` otherwise (default 604800).
    public var pollSchedule = PollSchedule()
    /// The most App Store Server API requests per second polling sends for one app. Default 10.
    public var pollRequestsPerSecond: Double = 10
    /// How long, in seconds, a process holds a poll or a webhook delivery it took: when the process dies, the
    /// others take its work after this. Default 120 (a delivery round may take at most half of it).
    public var leaseSeconds: Double = 120
    /// Raw evidence (signed transactions, notifications) received more than this many days ago is dropped, keeping
    /// what was decided from it and its digest; receipts are kept (polling without API credentials sends the
    /// newest). Default 0: kept for good.
    public var rawEvidenceRetentionDays = 0
    /// Apple's URLs (default Apple's; the in-process simulator overrides them).
    public var verifyReceiptProductionURL: String?
    /// Sandbox verifyReceipt URL.
    public var verifyReceiptSandboxURL: String?
    /// App Store Server API base URL (production; default Apple's `https://api.storekit.apple.com`).
    public var serverAPIBaseURL: String?
    /// App Store Server API base URL for the sandbox (default Apple's `https://api.storekit-sandbox.apple.com`, or
    /// ``serverAPIBaseURL`` when only that is set: a simulator or proxy that answers both).
    public var serverAPISandboxBaseURL: String?

    /// Report money in the metrics (`mrr`, refund amounts) also in this currency (ISO 4217), each currency
    /// converted at ``exchangeRates``; amounts in a currency without a rate are left out of that series. Default
    /// none.
    public var reportingCurrency: String?
    /// What one unit of each currency is worth in ``reportingCurrency`` (`{"EUR": 1.08, "JPY": 0.0067}`).
    /// Default none.
    public var exchangeRates: [String: Double] = [:]

    /// The reporting currency with its rates, when one is configured.
    public var reporting: ReportingCurrency? {
        reportingCurrency.map { ReportingCurrency(code: $0, rates: exchangeRates) }
    }

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case hostname, port, dataDirectory, databaseURL, apps, projects, apiKeys, metricsToken, webhooks, engine,
            transferPolicy,
            receiptValidation
        case maximumBodyBytes, limits, appleDeadlineSeconds, cacheMegabytes, simulator, simulatorEnvironment,
            simulatorClock, simulatorRate,
            verifyReceiptProductionURL, verifyReceiptSandboxURL, serverAPIBaseURL, serverAPISandboxBaseURL,
            webhookRetrySeconds, webhookTimeoutSeconds, webhookTestsPerMinute,
            reconcileSeconds, pollDelaySeconds, pollRetrySeconds, pollSweepSeconds, pollRequestsPerSecond, leaseSeconds,
            rawEvidenceRetentionDays,
            reportingCurrency, exchangeRates
    }

    /// Decodes a configuration file; every key is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        hostname = try c.decodeIfPresent(String.self, forKey: .hostname) ?? hostname
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? port
        dataDirectory = try c.decodeIfPresent(String.self, forKey: .dataDirectory) ?? dataDirectory
        databaseURL = try c.decodeIfPresent(String.self, forKey: .databaseURL)
        apps = try c.decodeIfPresent([App].self, forKey: .apps) ?? []
        projects = try c.decodeIfPresent([Project].self, forKey: .projects) ?? []
        apiKeys = try c.decodeIfPresent([APIKey].self, forKey: .apiKeys) ?? []
        metricsToken = try c.decodeIfPresent(String.self, forKey: .metricsToken)
        webhooks = try c.decodeIfPresent([Webhook].self, forKey: .webhooks) ?? []
        engine = try c.decodeIfPresent(EngineConfiguration.self, forKey: .engine) ?? engine
        transferPolicy = try c.decodeIfPresent(TransferPolicy.self, forKey: .transferPolicy) ?? transferPolicy
        receiptValidation = try c.decodeIfPresent(String.self, forKey: .receiptValidation) ?? receiptValidation
        maximumBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maximumBodyBytes) ?? maximumBodyBytes
        limits = try c.decodeIfPresent(ConnectionLimits.self, forKey: .limits) ?? limits
        appleDeadlineSeconds = try c.decodeIfPresent(Double.self, forKey: .appleDeadlineSeconds) ?? appleDeadlineSeconds
        simulator = try c.decodeIfPresent(Bool.self, forKey: .simulator)
        cacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .cacheMegabytes) ?? cacheMegabytes
        simulatorEnvironment =
            try c.decodeIfPresent(String.self, forKey: .simulatorEnvironment) ?? simulatorEnvironment
        simulatorClock = try c.decodeIfPresent(String.self, forKey: .simulatorClock) ?? simulatorClock
        simulatorRate = try c.decodeIfPresent(String.self, forKey: .simulatorRate) ?? simulatorRate
        verifyReceiptProductionURL = try c.decodeIfPresent(String.self, forKey: .verifyReceiptProductionURL)
        verifyReceiptSandboxURL = try c.decodeIfPresent(String.self, forKey: .verifyReceiptSandboxURL)
        serverAPIBaseURL = try c.decodeIfPresent(String.self, forKey: .serverAPIBaseURL)
        serverAPISandboxBaseURL = try c.decodeIfPresent(String.self, forKey: .serverAPISandboxBaseURL)
        webhookRetrySeconds = try c.decodeIfPresent([Double].self, forKey: .webhookRetrySeconds) ?? webhookRetrySeconds
        webhookTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .webhookTimeoutSeconds) ?? webhookTimeoutSeconds
        webhookTestsPerMinute =
            try c.decodeIfPresent(Int.self, forKey: .webhookTestsPerMinute) ?? webhookTestsPerMinute
        reconcileSeconds = try c.decodeIfPresent(Double.self, forKey: .reconcileSeconds) ?? reconcileSeconds
        pollSchedule.afterExpiry =
            try c.decodeIfPresent(Double.self, forKey: .pollDelaySeconds) ?? pollSchedule.afterExpiry
        pollSchedule.whileFailing =
            try c.decodeIfPresent(Double.self, forKey: .pollRetrySeconds) ?? pollSchedule.whileFailing
        pollSchedule.sweep = try c.decodeIfPresent(Double.self, forKey: .pollSweepSeconds) ?? pollSchedule.sweep
        pollRequestsPerSecond =
            try c.decodeIfPresent(Double.self, forKey: .pollRequestsPerSecond) ?? pollRequestsPerSecond
        leaseSeconds = try c.decodeIfPresent(Double.self, forKey: .leaseSeconds) ?? leaseSeconds
        rawEvidenceRetentionDays =
            try c.decodeIfPresent(Int.self, forKey: .rawEvidenceRetentionDays) ?? rawEvidenceRetentionDays
        reportingCurrency = try c.decodeIfPresent(String.self, forKey: .reportingCurrency)
        exchangeRates = try c.decodeIfPresent([String: Double].self, forKey: .exchangeRates) ?? exchangeRates
    }

    /// Reads a configuration file (when given) and applies the environment overrides (`DATABASE_URL` over
    /// `databaseURL`, `STOREKEEPER_PORT` over `port`, `STOREKEEPER_HOSTNAME` over `hostname`).
    /// - Parameters:
    ///   - path: A JSON file, or `nil` for the defaults.
    ///   - environment: Process environment (`DATABASE_URL`…).
    /// - Returns: The configuration.
    /// - Throws: ``ConfigurationError`` with one line a person can act on, naming the file: it does not exist or cannot
    ///   be read, it is not JSON (with the line and column), a key is unknown (with where it is), a value has the
    ///   wrong type.
    public static func load(path: String?, environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        if let path { configuration = try ConfigurationFile.read(path) }
        configuration.applyEnvironment(environment)
        return configuration
    }

    /// Whether the in-process simulator runs.
    public var usesSimulator: Bool { simulator ?? apps.isEmpty }

    /// Applies environment overrides: `DATABASE_URL`, `STOREKEEPER_PORT`, `STOREKEEPER_HOSTNAME`.
    public mutating func applyEnvironment(_ environment: [String: String]) {
        if let url = environment["DATABASE_URL"], !url.isEmpty { databaseURL = url }
        if let port = environment["STOREKEEPER_PORT"].flatMap(Int.init) { self.port = port }
        if let host = environment["STOREKEEPER_HOSTNAME"], !host.isEmpty { hostname = host }
    }

    /// The fewest characters a configured API key may have: a key is looked up by its unsalted SHA-256, so it must
    /// carry enough randomness itself (`storekeeper keys new` prints one).
    public static let minimumKeyLength = 32

    /// The demo app's bundle id (the built-in simulator's app when none is configured).
    public static let demoBundleID = "com.example.storekeeper.demo"
    /// The demo app's public key (accepted only in demo mode, with the built-in simulator and no configured app).
    public static let demoPublicKey = "pk_demo_storekeeper_public"
    /// The demo app's secret key (demo mode only).
    public static let demoSecretKey = "sk_demo_storekeeper_secret"

    /// The configured webhook endpoints as stored, each checked: its app is configured, its URL and event types
    /// are what the API accepts, its secret is long enough, and no two share an app's project and URL.
    /// - Parameter now: When an endpoint first stored is created.
    /// - Throws: ``ConfigurationError`` naming the entry (never its secret).
    public func configuredWebhooks(now: Date) throws -> [WebhookEndpointRecord] {
        let scopes = try projectScopes()
        var records: [String: WebhookEndpointRecord] = [:]
        for (index, webhook) in webhooks.enumerated() {
            let place = "webhooks[\(index)]"
            guard let project = scopes[webhook.bundleID] else {
                throw ConfigurationError("\(place): app \"\(webhook.bundleID.prefix(100))\" is not under apps")
            }
            let url: String
            let types: [String]
            do {
                url = try WebhookService.checkedURL(webhook.url)
                types = try WebhookService.checkedTypes(webhook.eventTypes ?? [])
            } catch let error as APIError {
                throw ConfigurationError("\(place): \(error.message)")
            }
            guard webhook.secret.count >= Self.minimumKeyLength else {
                throw ConfigurationError(
                    "\(place): the secret has \(webhook.secret.count) characters; at least \(Self.minimumKeyLength) are required"
                )
            }
            let id = Self.configuredWebhookID(project: project.id, url: url)
            guard records[id] == nil else {
                throw ConfigurationError(
                    "\(place): another entry already sends \(project.id)'s events to \(url.prefix(200))")
            }
            records[id] = WebhookEndpointRecord(
                id: id, projectID: project.id, url: url, eventTypes: types, secret: webhook.secret, createdAt: now)
        }
        return records.values.sorted { $0.id < $1.id }
    }

    /// The id of a configured endpoint: `cfg_` and 24 hex digits of SHA-256 over its project and URL.
    static func configuredWebhookID(project: String, url: String) -> String {
        "cfg_" + HexDigest.hex(SHA256.hash(data: Array("\(project)\n\(url)".utf8)).prefix(12))
    }

    /// The demo engine configuration for the simulator's demo app.
    public static let demoEngine: EngineConfiguration = {
        var engine = EngineConfiguration()
        engine.entitlements = [
            "premium.monthly": ["pro"], "premium.annual": ["pro"], "basic.monthly": ["basic"], "lifetime": ["pro"],
        ]
        engine.subscriptionGroups = ["premium.monthly": "pro", "premium.annual": "pro", "basic.monthly": "pro"]
        engine.consumables = ["coins.100"]
        return engine
    }()
}
