import Foundation
public import SubscriptionEngine
public import SubscriptionMetrics

/// The one implementation of ``Store``: plain SQL with bound parameters over any ``SQLDatabase``.
public struct SQLStore: Store {
    /// The database.
    public let database: any SQLDatabase
    /// Decoded evidence, keyed by the exact stored JSON (saves decoding; never answers stale).
    public let evidenceCache: EvidenceCache
    /// Which subscribers' rows changed.
    public let changes: SubscriberChanges
    /// The projects' settings, over the same (audited) database.
    public let settings: any SettingStore
    /// The API keys, over the same database.
    public let keys: any KeyStore
    /// The webhooks' endpoints, delivery log and leases, over the same database.
    public let webhooks: any WebhookStore
    /// The poll schedule's leases, over the same database.
    public let polls: any PollStore
    /// Retention Messaging's exchanges and answers, over the same database.
    public let retention: any RetentionStore
    /// Subscriber attributes, over the same database.
    public let attributes: any AttributeStore
    /// Experiments' enrolments and tallies, over the same database.
    public let experiments: any ExperimentStore
    /// Customer search, over the same database.
    public let search: any SearchStore
    /// The audit log's reads, over the same database.
    public let audit: any AuditStore
    /// Support's mass extension requests, over the same database.
    public let massExtensions: any MassExtensionStore
    /// Encodes evidence for storing, remembering each observation's JSON.
    public let evidenceEncoder: EvidenceEncoder

    /// PostgreSQL: groups concurrent notifications into shared transactions (see ``applyGroup(_:)``).
    public let notificationQueue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?
    /// How group commit went.
    public let groupTally: GroupTally
    /// The fewest notifications applied in one shared transaction (``GroupCommit/smallestGroup``).
    let smallestGroup: Int
    /// Decides what each write announces (the webhooks' outbox); `nil`: nothing is announced.
    public let announcer: (any ChangeAnnouncer)?
    /// Folds superseded history out of every saved row into `evidence_history` (the server's engine, for its
    /// product kinds); `nil` keeps every observation in the row.
    public let folding: SubscriptionEngine?
    /// Keeps metric rollups with every write (``refreshRollups(_:_:)``), with these proceeds rules; `nil` keeps
    /// none.
    public let rollupRules: ProceedsRules?

    /// Wraps a database.
    /// - Parameters:
    ///   - database: SQLite or PostgreSQL.
    ///   - evidenceCache: Where decoded evidence is remembered.
    ///   - evidenceEncoder: Encodes evidence for storing.
    ///   - groupCommit: PostgreSQL: how notifications that arrive together commit.
    ///   - announcer: Decides what each write announces; `nil` announces nothing.
    ///   - folding: The engine whose fold moves superseded history out of each saved row; `nil` keeps it all.
    ///   - rollupRules: Keeps metric rollups with these proceeds rules; `nil` keeps none.
    public init(
        database: any SQLDatabase, evidenceCache: EvidenceCache = EvidenceCache(),
        evidenceEncoder: EvidenceEncoder = EvidenceEncoder(),
        groupCommit: GroupCommit = .standard, announcer: (any ChangeAnnouncer)? = nil,
        folding: SubscriptionEngine? = nil, rollupRules: ProceedsRules? = nil
    ) {
        let changes = SubscriberChanges(liveFromStart: database.dialect.hearsAllChangesInProcess)
        let settingChanges = SubscriberChanges(liveFromStart: database.dialect.hearsAllChangesInProcess)
        let tally = GroupTally()
        var queue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?
        let groupCommit = database.dialect.groupCommit(groupCommit)
        if groupCommit.isOn {
            let plain = SQLStore(
                database: database, evidenceCache: evidenceCache, evidenceEncoder: evidenceEncoder, changes: changes,
                settingChanges: settingChanges, groupTally: tally,
                notificationQueue: nil, smallestGroup: groupCommit.smallestGroup, announcer: announcer,
                folding: folding, rollupRules: rollupRules)
            queue = ApplyQueue(workers: groupCommit.workers, largestGroup: groupCommit.largestGroup) { writes in
                await plain.applyGroup(writes)
            }
        }
        self.init(
            database: database, evidenceCache: evidenceCache, evidenceEncoder: evidenceEncoder, changes: changes,
            settingChanges: settingChanges, groupTally: tally,
            notificationQueue: queue, smallestGroup: groupCommit.smallestGroup, announcer: announcer,
            folding: folding, rollupRules: rollupRules)
    }

    private init(
        database: any SQLDatabase, evidenceCache: EvidenceCache, evidenceEncoder: EvidenceEncoder,
        changes: SubscriberChanges, settingChanges: SubscriberChanges,
        groupTally: GroupTally, notificationQueue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?,
        smallestGroup: Int, announcer: (any ChangeAnnouncer)?, folding: SubscriptionEngine?,
        rollupRules: ProceedsRules?
    ) {
        self.rollupRules = rollupRules
        self.smallestGroup = smallestGroup
        self.folding = folding
        self.announcer = announcer
        self.database = AuditedDatabase(base: database)
        self.evidenceCache = evidenceCache
        self.evidenceEncoder = evidenceEncoder
        self.changes = changes
        self.settings = SQLSettingStore(database: self.database, settingChanges: settingChanges)
        self.keys = SQLKeyStore(database: self.database)
        self.webhooks = SQLWebhookStore(database: self.database)
        self.polls = SQLPollStore(database: self.database)
        self.retention = SQLRetentionStore(database: self.database)
        self.attributes = SQLAttributeStore(database: self.database, changes: changes)
        self.experiments = SQLExperimentStore(database: self.database)
        self.search = SQLSearchStore(database: self.database)
        self.audit = SQLAuditStore(database: self.database)
        self.massExtensions = SQLMassExtensionStore(database: self.database)
        self.groupTally = groupTally
        self.notificationQueue = notificationQueue
    }

    /// The PostgreSQL notification channel that carries the ids of changed subscriber rows.
    public static let changeChannel = "storekeeper_subscribers"

    static func timestamp(_ date: Date) -> String {
        String(format: "%.3f", date.timeIntervalSince1970)
    }

    static func date(_ value: SQLValue?) -> Date {
        Date(timeIntervalSince1970: Double(value?.string ?? "") ?? 0)
    }

    /// A stored instant, or `nil` for NULL.
    static func optionalDate(_ value: SQLValue?) -> Date? {
        value?.string == nil ? nil : date(value)
    }

    /// Closes the database.
    public func close() async throws { try await database.close() }

    /// The size and use of its caches of decoded evidence and encoded observations.
    public var cacheUsage: [String: CacheUsage] {
        ["evidence": evidenceCache.usage, "encodings": evidenceEncoder.usage]
    }
}
