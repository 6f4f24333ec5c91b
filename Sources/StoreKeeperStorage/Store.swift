public import Foundation
public import SubscriptionEngine

/// Where StoreKeeper keeps subscribers, raw evidence, notifications and events.
///
/// Implementations: ``SQLStore`` over SQLite (`StoreKeeperSQLite`) or PostgreSQL (`StoreKeeperPostgres`).
/// Every write is one database transaction: the evidence, the subscriber's new state and its events commit
/// together or not at all.
public protocol Store: WebhookStore, PollStore {
    /// Which subscribers' rows changed (this process's writes, and on PostgreSQL other processes' too).
    var changes: SubscriberChanges { get }

    /// The schema version in place (migrations applied); ``SQLStore/schemaVersion`` is the one this build needs.
    func appliedSchemaVersion() async throws -> Int
    /// Applies versioned migrations.
    /// - Returns: The schema version now in place.
    @discardableResult
    func migrate() async throws -> Int

    /// Stores verified evidence and applies it.
    /// - Parameters:
    ///   - write: The evidence.
    ///   - policy: What to do when a subscription arrives for a second user.
    ///   - now: The server's clock.
    /// - Returns: What happened.
    func apply(_ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws -> ApplyOutcome

    /// A subscriber by id or alias, in one project (another project's subscriber is not found).
    func subscriber(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberRecord?

    /// A subscriber's stored row by id or alias in one project, evidence undecoded: one indexed read.
    func snapshot(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberSnapshot?

    /// A snapshot's evidence, decoded (or remembered from an earlier decode of the same JSON).
    func decodeEvidence(_ snapshot: SubscriberSnapshot) throws -> EvidenceSet

    /// Everything known about a subscriber: its row's evidence and the history folded out of it (what answers
    /// about the past — metrics, timelines — are computed from; answers from now on need only the row).
    /// - Parameter snapshot: The subscriber's row.
    /// - Returns: The whole evidence.
    func fullEvidence(_ snapshot: SubscriberSnapshot) async throws -> EvidenceSet

    /// Drops the raw text of up to `limit` stored evidence rows received before `cutoff`, receipts excepted (the
    /// retention setting): their digest, and everything decided from them, stay.
    /// - Returns: How many were dropped (`limit`: there may be more).
    func purgeRawEvidence(receivedBefore cutoff: Date, limit: Int) async throws -> Int

    /// The size and use of the store's caches, by name (`evidence`, `encodings`), for `/metrics`.
    var cacheUsage: [String: CacheUsage] { get }

    /// The base64 app receipt last stored for a subscriber (by its storage key), if any: what polling asks
    /// verifyReceipt with when the app has no App Store Server API credentials.
    func latestReceipt(appUserKey: String) async throws -> String?

    /// The subscriptions and purchases (original transaction ids) whose transactions name `appTransactionID`, by
    /// the storage key of the subscriber that owns them, in one project. Found by scanning stored evidence: it
    /// answers a parent's rescinded consent, which is rare.
    func originals(appTransactionID: String, in project: ProjectScope) async throws -> [String: [String]]

    /// One page of a project's subscribers' whole evidence (history included) in storage-key order, after `after`
    /// (`nil`: from the first): what project-wide reads (metrics) stream through, a page at a time.
    func evidencePage(in project: ProjectScope, after: String?, limit: Int) async throws -> [(
        storageKey: String, evidence: EvidenceSet
    )]

    /// The newest notifications received for these apps, newest first (only notifications that verified are
    /// stored).
    func recentNotifications(bundleIDs: [String], limit: Int) async throws -> [NotificationRecord]

    /// A subscriber's events in one project, oldest first.
    func events(_ appUserID: String, in project: ProjectScope, limit: Int) async throws -> [EventRecord]

    /// Makes `alias` another name for `appUserID`, merging the alias's evidence into it; both ids are in
    /// `project`, so an alias never reaches another project's subscriber.
    func alias(_ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date)
        async throws

    /// Makes the stored API keys exactly `keys` (record by key hash) in one transaction: keys not in it are deleted.
    func replaceAPIKeys(_ keys: [String: APIKeyRecord]) async throws

    /// An API key by its hash.
    func apiKey(hash: String) async throws -> APIKeyRecord?

    /// Every table's rows in a stable order (tests compare dumps before and after bad input).
    func dump() async throws -> String

    /// Closes connections.
    func close() async throws
}
