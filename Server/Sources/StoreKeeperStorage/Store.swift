/// Where StoreKeeper keeps subscribers, raw evidence, notifications and events: every concern's store together,
/// with the schema and the connections. Only the composition root holds a whole `Store`: a feature depends on the
/// narrowest of ``EvidenceStore``, ``MetricSource``, ``RollupStore``, ``KeyStore``, ``WebhookStore``,
/// ``PollStore``, ``SettingStore``, ``ExperimentStore``, ``AttributeStore``, ``RetentionStore``, ``SearchStore``,
/// ``MassExtensionStore`` and ``SchemaStore`` that serves it.
///
/// Implementations: ``SQLStore`` over SQLite (`StoreKeeperSQLite`) or PostgreSQL (`StoreKeeperPostgres`).
/// Every write is one database transaction: the evidence, the subscriber's new state and its events commit
/// together or not at all.
public protocol Store: EvidenceStore, MetricSource, RollupStore, KeyStore, WebhookStore, PollStore, SettingStore,
    ExperimentStore, AttributeStore, RetentionStore, SearchStore, SchemaStore, AuditStore, CustomerDataStore,
    MassExtensionStore
{
    /// The size and use of the store's caches, by name (`evidence`, `encodings`), for `/metrics`.
    var cacheUsage: [String: CacheUsage] { get }

    /// Every table's rows in a stable order (tests compare dumps before and after bad input).
    func dump() async throws -> String

    /// Closes connections.
    func close() async throws
}
