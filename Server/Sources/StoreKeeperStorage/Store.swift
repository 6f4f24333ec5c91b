/// Where StoreKeeper keeps subscribers, raw evidence, notifications and events: every concern's store together,
/// with the schema and the connections. Only the composition root holds a whole `Store`: a feature depends on the
/// narrowest of ``EvidenceStore``, ``MetricSource``, ``RollupStore``, ``KeyStore``, ``WebhookStore``,
/// ``PollStore``, ``SettingStore``, ``ExperimentStore``, ``AttributeStore``, ``RetentionStore``, ``SearchStore``,
/// ``MassExtensionStore`` and ``SchemaStore`` that serves it.
///
/// Settings, API keys, webhooks, polls, experiments, attributes, retention, search, the audit log and mass extensions are stores of their own over
/// the same connection: the first concerns taken out of the one conformer, as the rest will be.
///
/// Implementations: ``SQLStore`` over SQLite (`StoreKeeperSQLite`) or PostgreSQL (`StoreKeeperPostgres`).
/// Every write is one database transaction: the evidence, the subscriber's new state and its events commit
/// together or not at all.
public protocol Store: EvidenceStore, MetricSource, RollupStore, SchemaStore, CustomerDataStore {
    /// Retention Messaging's exchanges and answers: a store of their own over the same connection.
    var retention: any RetentionStore { get }

    /// Subscriber attributes: a store of their own over the same connection, publishing with ``changes``.
    var attributes: any AttributeStore { get }

    /// Experiments' enrolments and tallies: a store of their own over the same connection.
    var experiments: any ExperimentStore { get }

    /// Customer search: a store of its own over the same connection.
    var search: any SearchStore { get }

    /// The audit log's reads (its rows are appended by the audited database with each audited write).
    var audit: any AuditStore { get }

    /// Support's mass extension requests: a store of their own over the same connection.
    var massExtensions: any MassExtensionStore { get }

    /// The webhooks' endpoints, delivery log and leases: a store of its own over the same connection (the events
    /// and deliveries themselves are written with the changes that announce them).
    var webhooks: any WebhookStore { get }

    /// The poll schedule's leases: a store of its own over the same connection.
    var polls: any PollStore { get }

    /// The projects' settings: a store of its own over the same connection.
    var settings: any SettingStore { get }

    /// The API keys: a store of their own over the same connection.
    var keys: any KeyStore { get }

    /// The size and use of the store's caches, by name (`evidence`, `encodings`), for `/metrics`.
    var cacheUsage: [String: CacheUsage] { get }

    /// Every table's rows in a stable order (tests compare dumps before and after bad input).
    func dump() async throws -> String

    /// Closes connections.
    func close() async throws
}
