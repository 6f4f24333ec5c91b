import Crypto
public import Foundation
public import StoreKeeperAPI
public import StoreKeeperStorage
public import SubscriptionEngine

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
        /// A secret key's scope: `read`, `support` or `admin` (the default: everything). A public key has none.
        public var scope: APIKeyRecord.Scope?

        /// Makes a key entry.
        public init(key: String, kind: APIKeyRecord.Kind, bundleID: String, scope: APIKeyRecord.Scope? = nil) {
            self.key = key
            self.kind = kind
            self.bundleID = bundleID
            self.scope = scope
        }

        /// The stored record of this key.
        var record: APIKeyRecord { APIKeyRecord(kind: kind, bundleID: bundleID, scope: scope) }

        /// The keys of an API key entry.
        enum CodingKeys: String, CodingKey, CaseIterable { case key, kind, bundleID, scope }
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
    /// Webhook endpoints kept in this file (besides those added through the API). Default none.
    public var webhooks: [Webhook] = []
    /// Products, entitlements, groups for the engine.
    public var engine = EngineConfiguration()
    /// When one original transaction arrives for a second user. Default `transfer`.
    public var transferPolicy = TransferPolicy.transfer
    /// Largest request body in bytes. Default 1 MiB.
    public var maximumBodyBytes = 1 << 20
    /// Connection limits: idle, header and body timeouts, most open connections (see ``ConnectionLimits``).
    public var limits = ConnectionLimits()
    /// How the server talks to Apple: receipt validation, the deadline, Apple's URLs.
    public var apple = AppleSettings()
    /// The in-process simulator: whether it runs, and its environment, clock and pace.
    public var simulator = SimulatorSettings()
    /// The memory the caches may use together, in MiB (answers, decoded evidence, encoded observations; each
    /// forgets its least recently used entries past its share). Default 256; 0 keeps nothing (every read from
    /// the database: for measuring, or a machine with no memory to spare).
    public var cacheMegabytes = 256
    /// How webhook deliveries are retried, timed and tested.
    public var webhookDelivery = WebhookDeliverySettings()
    /// The wait for a receiver's answer the dispatcher uses: `webhookTimeoutSeconds`, but at most half of
    /// `leaseSeconds` (the one place that rule is decided).
    public var webhookRequestTimeoutSeconds: Double { min(webhookDelivery.timeoutSeconds, leaseSeconds / 2) }
    /// When Apple is asked about what was not heard: polls and notification history.
    public var polling = PollingSettings()
    /// How long, in seconds, a process holds a poll or a webhook delivery it took: when the process dies, the
    /// others take its work after this. Default 120 (a delivery round may take at most half of it).
    public var leaseSeconds: Double = 120
    /// Raw evidence (signed transactions, notifications) received more than this many days ago is dropped, keeping
    /// what was decided from it and its digest; receipts are kept (polling without API credentials sends the
    /// newest). Default 0: kept for good.
    public var rawEvidenceRetentionDays = 0
    /// What the metrics answer in, and who may read `/metrics`.
    public var metrics = MetricSettings()
    /// The Ed25519 private keys (base64 of 32 bytes; `storekeeper keys new signing`) the server signs its answers
    /// to the SDK with, when a request carries a nonce (see `AnswerSignature`); two while the key changes, each
    /// answer then carrying both signatures. Default none: answers are not signed.
    public var answerSigningKeys: [String] = []
    /// Retention Messaging rules by app (bundle id), for the app's project: applied at every start, replacing
    /// what `PUT /v1/retention/rules` stored for that project. Default none: the API's rules stand.
    public var retentionRules: [String: RetentionRules] = [:]

    /// The most customers without evidence (no purchase, receipt or app transaction) a project holds attributes
    /// the app set for (with its public key); past it such a write for one more is refused with 409
    /// `too_many_guests`. Default 100,000.
    public var maximumAttributeGuests = 100_000

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
            reportingCurrency, exchangeRates, smallBusinessProgram, storefrontTaxRates, metricRollups,
            answerSigningKeys,
            retentionRules, maximumAttributeGuests
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
        metrics.token = try c.decodeIfPresent(String.self, forKey: .metricsToken)
        webhooks = try c.decodeIfPresent([Webhook].self, forKey: .webhooks) ?? []
        engine = try c.decodeIfPresent(EngineConfiguration.self, forKey: .engine) ?? engine
        transferPolicy = try c.decodeIfPresent(TransferPolicy.self, forKey: .transferPolicy) ?? transferPolicy
        apple.receiptValidation =
            try c.decodeChoice(AppleSettings.ReceiptValidation.self, forKey: .receiptValidation)
            ?? apple.receiptValidation
        maximumBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maximumBodyBytes) ?? maximumBodyBytes
        limits = try c.decodeIfPresent(ConnectionLimits.self, forKey: .limits) ?? limits
        apple.deadlineSeconds =
            try c.decodeIfPresent(Double.self, forKey: .appleDeadlineSeconds) ?? apple.deadlineSeconds
        simulator.enabled = try c.decodeIfPresent(Bool.self, forKey: .simulator)
        cacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .cacheMegabytes) ?? cacheMegabytes
        simulator.environment =
            try c.decodeChoice(SimulatorSettings.Environment.self, forKey: .simulatorEnvironment)
            ?? simulator.environment
        simulator.clock = try c.decodeChoice(SimulatorSettings.Clock.self, forKey: .simulatorClock) ?? simulator.clock
        simulator.rate = try c.decodeChoice(SimulatorSettings.Rate.self, forKey: .simulatorRate) ?? simulator.rate
        apple.verifyReceiptProductionURL = try c.decodeIfPresent(String.self, forKey: .verifyReceiptProductionURL)
        apple.verifyReceiptSandboxURL = try c.decodeIfPresent(String.self, forKey: .verifyReceiptSandboxURL)
        apple.serverAPIBaseURL = try c.decodeIfPresent(String.self, forKey: .serverAPIBaseURL)
        apple.serverAPISandboxBaseURL = try c.decodeIfPresent(String.self, forKey: .serverAPISandboxBaseURL)
        webhookDelivery.retrySeconds =
            try c.decodeIfPresent([Double].self, forKey: .webhookRetrySeconds) ?? webhookDelivery.retrySeconds
        webhookDelivery.timeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .webhookTimeoutSeconds) ?? webhookDelivery.timeoutSeconds
        webhookDelivery.testsPerMinute =
            try c.decodeIfPresent(Int.self, forKey: .webhookTestsPerMinute) ?? webhookDelivery.testsPerMinute
        polling.reconcileSeconds =
            try c.decodeIfPresent(Double.self, forKey: .reconcileSeconds) ?? polling.reconcileSeconds
        polling.schedule.afterExpiry =
            try c.decodeIfPresent(Double.self, forKey: .pollDelaySeconds) ?? polling.schedule.afterExpiry
        polling.schedule.whileFailing =
            try c.decodeIfPresent(Double.self, forKey: .pollRetrySeconds) ?? polling.schedule.whileFailing
        polling.schedule.sweep = try c.decodeIfPresent(Double.self, forKey: .pollSweepSeconds) ?? polling.schedule.sweep
        polling.requestsPerSecond =
            try c.decodeIfPresent(Double.self, forKey: .pollRequestsPerSecond) ?? polling.requestsPerSecond
        leaseSeconds = try c.decodeIfPresent(Double.self, forKey: .leaseSeconds) ?? leaseSeconds
        rawEvidenceRetentionDays =
            try c.decodeIfPresent(Int.self, forKey: .rawEvidenceRetentionDays) ?? rawEvidenceRetentionDays
        metrics.reportingCurrency = try c.decodeIfPresent(String.self, forKey: .reportingCurrency)
        metrics.exchangeRates = try c.decodeIfPresent([String: Double].self, forKey: .exchangeRates) ?? [:]
        metrics.smallBusinessProgram = try c.decodeIfPresent(Bool.self, forKey: .smallBusinessProgram) ?? false
        metrics.rollups = try c.decodeIfPresent(Bool.self, forKey: .metricRollups) ?? true
        metrics.storefrontTaxRates =
            try c.decodeIfPresent([String: Double].self, forKey: .storefrontTaxRates) ?? [:]
        answerSigningKeys = try c.decodeIfPresent([String].self, forKey: .answerSigningKeys) ?? []
        retentionRules = try c.decodeIfPresent([String: RetentionRules].self, forKey: .retentionRules) ?? [:]
        maximumAttributeGuests =
            try c.decodeIfPresent(Int.self, forKey: .maximumAttributeGuests) ?? maximumAttributeGuests
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
    public var usesSimulator: Bool { simulator.enabled ?? apps.isEmpty }

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
            } catch let error as ServiceError {
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
