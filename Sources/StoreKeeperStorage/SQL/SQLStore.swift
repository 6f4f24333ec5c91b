public import Foundation
public import SubscriptionEngine

/// The one implementation of ``Store``: plain SQL with bound parameters over any ``SQLDatabase``.
public struct SQLStore: Store {
    /// The database.
    public let database: any SQLDatabase
    /// Decoded evidence, keyed by the exact stored JSON (saves decoding; never answers stale).
    public let evidenceCache: EvidenceCache
    /// Which subscribers' rows changed.
    public let changes: SubscriberChanges
    /// Encodes evidence for storing, remembering each observation's JSON.
    public let evidenceEncoder: EvidenceEncoder

    /// PostgreSQL: groups concurrent notifications into shared transactions (see ``applyGroup(_:)``).
    public let notificationQueue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?
    /// How group commit went.
    public let groupTally: GroupTally

    /// Wraps a database.
    /// - Parameters:
    ///   - database: SQLite or PostgreSQL.
    ///   - evidenceCache: Where decoded evidence is remembered.
    ///   - evidenceEncoder: Encodes evidence for storing.
    ///   - groupCommit: PostgreSQL: how many notification groups may commit at once, and the most
    ///     notifications one group carries (`largestGroup` 1 commits each on its own).
    public init(
        database: any SQLDatabase, evidenceCache: EvidenceCache = EvidenceCache(), evidenceEncoder: EvidenceEncoder = EvidenceEncoder(),
        groupCommit: (workers: Int, largestGroup: Int) = (workers: 2, largestGroup: 32)
    ) {
        let changes = SubscriberChanges(liveFromStart: database.dialect == .sqlite)
        let tally = GroupTally()
        var queue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?
        if database.dialect == .postgres, groupCommit.largestGroup > 1 {
            let plain = SQLStore(
                database: database, evidenceCache: evidenceCache, evidenceEncoder: evidenceEncoder, changes: changes, groupTally: tally,
                notificationQueue: nil)
            queue = ApplyQueue(workers: groupCommit.workers, largestGroup: groupCommit.largestGroup) { writes in
                await plain.applyGroup(writes)
            }
        }
        self.init(
            database: database, evidenceCache: evidenceCache, evidenceEncoder: evidenceEncoder, changes: changes, groupTally: tally,
            notificationQueue: queue)
    }

    private init(
        database: any SQLDatabase, evidenceCache: EvidenceCache, evidenceEncoder: EvidenceEncoder, changes: SubscriberChanges,
        groupTally: GroupTally, notificationQueue: ApplyQueue<QueuedWrite, (ApplyOutcome, Set<String>)>?
    ) {
        self.database = database
        self.evidenceCache = evidenceCache
        self.evidenceEncoder = evidenceEncoder
        self.changes = changes
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

    // MARK: - Migrations

    /// Applies every migration not yet applied, in order, each in its own transaction.
    @discardableResult
    public func migrate() async throws -> Int { try await migrate(projects: [:]) }

    /// Applies every migration not yet applied, in order, each in its own transaction.
    /// - Parameters:
    ///   - projects: The project of each app that groups apps (bundle id → project), for rows written before
    ///     projects existed (migration 5); an app not listed is a project of its own, named by its bundle id.
    ///   - version: Stop after this version (tests of one migration start from the schema before it).
    /// - Returns: The schema version now in place.
    @discardableResult
    public func migrate(projects: [String: ProjectScope], through version: Int = .max) async throws -> Int {
        let last = version
        let autoIncrement = database.dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY"
        let migrations: [[String]] = [
            [
                "CREATE TABLE subscribers (app_user_id TEXT PRIMARY KEY, bundle_id TEXT NOT NULL, evidence_json TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)",
                "CREATE TABLE aliases (alias TEXT PRIMARY KEY, app_user_id TEXT NOT NULL)",
                "CREATE INDEX aliases_user ON aliases (app_user_id)",
                "CREATE TABLE ownership (original_transaction_id TEXT PRIMARY KEY, app_user_id TEXT NOT NULL, bundle_id TEXT NOT NULL)",
                "CREATE INDEX ownership_user ON ownership (app_user_id)",
                "CREATE TABLE evidence (id \(autoIncrement), digest TEXT NOT NULL UNIQUE, bundle_id TEXT NOT NULL, kind TEXT NOT NULL, received_at TEXT NOT NULL, body TEXT NOT NULL)",
                "CREATE TABLE notifications (notification_id TEXT PRIMARY KEY, bundle_id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, received_at TEXT NOT NULL, evidence_id BIGINT, original_transaction_ids TEXT NOT NULL, pending_json TEXT)",
                "CREATE INDEX notifications_status ON notifications (status)",
                "CREATE TABLE events (id \(autoIncrement), app_user_id TEXT NOT NULL, created_at TEXT NOT NULL, type TEXT NOT NULL, cause TEXT NOT NULL, cause_id TEXT, evidence_id BIGINT, detail_json TEXT NOT NULL)",
                "CREATE INDEX events_user ON events (app_user_id, id)",
                "CREATE TABLE api_keys (key_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, bundle_id TEXT NOT NULL)",
            ],
            // 2: PostgreSQL keeps rows up to a page inline and stores larger JSON and raw evidence out of line
            // without compressing it (signed tokens barely compress; pglz and TOAST writes on every
            // notification cost more CPU than the statements themselves).
            database.dialect == .sqlite ? [] : [
                "ALTER TABLE evidence ALTER COLUMN body SET STORAGE EXTERNAL",
                "ALTER TABLE subscribers ALTER COLUMN evidence_json SET STORAGE EXTERNAL",
                "ALTER TABLE notifications ALTER COLUMN pending_json SET STORAGE EXTERNAL",
                "ALTER TABLE evidence SET (toast_tuple_target = 8160)",
                "ALTER TABLE subscribers SET (toast_tuple_target = 8160)",
                "ALTER TABLE notifications SET (toast_tuple_target = 8160)",
            ],
            // 3: PostgreSQL announces every committed change of a subscriber row, so every server process can
            // drop what it derived from the old row (see SubscriberChanges).
            database.dialect == .sqlite ? [] : [
                "CREATE OR REPLACE FUNCTION storekeeper_subscriber_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('\(Self.changeChannel)', COALESCE(NEW.app_user_id, OLD.app_user_id)); RETURN NULL; END $$",
                "CREATE TRIGGER subscribers_changed AFTER INSERT OR UPDATE OR DELETE ON subscribers FOR EACH ROW EXECUTE FUNCTION storekeeper_subscriber_changed()",
            ],
            // 4: Only parked notifications are ever looked up by status, and they are few: index just those (in
            // the order they are applied), so storing an applied notification no longer writes a status entry.
            [
                "DROP INDEX notifications_status",
                "CREATE INDEX notifications_pending ON notifications (received_at, notification_id) WHERE status = 'pending'",
            ],
            // 5: Tenants. Every subscriber, alias, subscription and event moves into the project of the app that
            // wrote it: keys become `project:id` (see ProjectScope).
            Self.projectMigration(projects),
        ]
        _ = try await database.withTransaction { tx in
            try await tx.query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)", [])
        }
        var version = 0
        for (index, statements) in migrations.enumerated() where index < last {
            let number = Int64(index + 1)
            let applied: Bool = try await database.withTransaction { tx in
                let rows = try await tx.query("SELECT version FROM schema_migrations WHERE version = ?", [.integer(number)])
                if !rows.isEmpty { return false }
                for statement in statements { try await tx.query(statement, []) }
                try await tx.query(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(number), .text(Self.timestamp(Date()))])
                return true
            }
            _ = applied
            version = Int(number)
        }
        return version
    }

    /// Migration 5's statements: qualify every stored key by its project.
    static func projectMigration(_ projects: [String: ProjectScope]) -> [String] {
        // Bundle ids and project ids are plain `A–Z a–z 0–9 . _ -` (anything else is skipped and the app stays its
        // own project), so they are written into the statements as literals.
        let rows = projects.filter { ProjectScope.isValid($0.key) }.sorted { $0.key < $1.key }
        func project(ofBundle bundle: String) -> String {
            "COALESCE((SELECT project_id FROM migration_projects WHERE bundle_id = \(bundle)), \(bundle))"
        }
        func project(ofUser user: String, orBundle fallback: String) -> String {
            "COALESCE((SELECT \(project(ofBundle: "s.bundle_id")) FROM subscribers s WHERE s.app_user_id = \(user)), \(fallback))"
        }
        let ownerBundle = "(SELECT o.bundle_id FROM ownership o WHERE o.app_user_id = events.app_user_id LIMIT 1)"
        return ["CREATE TABLE migration_projects (bundle_id TEXT PRIMARY KEY, project_id TEXT NOT NULL)"]
            + rows.map { "INSERT INTO migration_projects (bundle_id, project_id) VALUES ('\($0.key)', '\($0.value.id)')" }
            + [
                "UPDATE events SET app_user_id = "
                    + project(ofUser: "events.app_user_id", orBundle: "COALESCE(\(project(ofBundle: ownerBundle)), 'unassigned')")
                    + " || ':' || app_user_id",
                "UPDATE aliases SET alias = \(project(ofUser: "aliases.app_user_id", orBundle: "'unassigned'")) || ':' || alias, "
                    + "app_user_id = \(project(ofUser: "aliases.app_user_id", orBundle: "'unassigned'")) || ':' || app_user_id",
                "UPDATE ownership SET original_transaction_id = "
                    + project(ofUser: "ownership.app_user_id", orBundle: project(ofBundle: "ownership.bundle_id"))
                    + " || ':' || original_transaction_id, app_user_id = "
                    + project(ofUser: "ownership.app_user_id", orBundle: project(ofBundle: "ownership.bundle_id")) + " || ':' || app_user_id",
                "UPDATE notifications SET original_transaction_ids = "
                    + project(ofBundle: "notifications.bundle_id") + " || ':' || REPLACE(original_transaction_ids, ',', ',' || "
                    + project(ofBundle: "notifications.bundle_id") + " || ':') WHERE original_transaction_ids <> ''",
                "UPDATE subscribers SET app_user_id = " + project(ofBundle: "subscribers.bundle_id") + " || ':' || app_user_id",
                "DROP TABLE migration_projects",
            ]
    }

    // MARK: - Writes

    /// Stores and applies evidence in one transaction; see ``Store/apply(_:policy:now:)``.
    public func apply(_ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws -> ApplyOutcome {
        let write = write.keyed
        if let notificationQueue, write.appUserID == nil, write.notificationID != nil {
            return try await notificationQueue.submit(QueuedWrite(write: write, policy: policy, now: now)).0
        }
        return try await applyAlone(QueuedWrite(write: write, policy: policy, now: now)).0
    }

    /// Applies one write in its own transaction and publishes the subscribers it changed.
    func applyAlone(_ queued: QueuedWrite) async throws -> (ApplyOutcome, Set<String>) {
        let result: (ApplyOutcome, Set<String>)
        do {
            result = try await database.withTransaction { tx in
                try await applyInTransaction(tx, queued.write, policy: queued.policy, now: queued.now)
            }
        } catch is DuplicateNotification {
            return (.duplicate, [])
        }
        changes.publish(.changed(result.1.sorted()))
        return result
    }

    /// Thrown inside the transaction to roll back a duplicate delivery, so it changes nothing.
    struct DuplicateNotification: Error {}

    /// The work of ``apply(_:policy:now:)`` inside its transaction.
    /// - Returns: The outcome, and the subscribers whose rows it wrote.
    func applyInTransaction(_ tx: any SQLTransaction, _ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws
        -> (ApplyOutcome, Set<String>)
    {
        let cache = evidenceCache
        let originals = write.originalTransactionIDs
        // Serialise work on the same subscriptions, then on the same subscribers (always in this order, each
        // sorted, so two writers cannot deadlock). SQLite transactions are serial already.
        try await Self.lock(tx, originals.map { "otid:\($0)" })
        let claim = try await Self.claim(tx, write, now: now)
        // A second delivery of a notification finds its id taken and rolls back whatever it wrote.
        guard claim.claimed else { throw DuplicateNotification() }
        let evidenceID = claim.evidenceID
        let notificationID = write.notificationID ?? "evidence-\(evidenceID)"
        // Who does this evidence belong to?
        var owners = claim.owners
        func target() async throws -> String? {
            if let posted = write.appUserID { return try await Self.canonical(tx, posted) }
            return originals.lazy.compactMap { owners[$0] }.first
        }
        var user = try await target()
        var locked = Set(user.map { [$0] } ?? []).union(owners.values)
        var preloaded: (user: String, json: String?)?
        let alreadyLocked = claim.locked.map { write.appUserID == nil && locked == [$0.user] } ?? false
        if alreadyLocked, let row = claim.locked {
            // PostgreSQL's usual case, a notification for a subscription one subscriber owns: the claim already
            // locked that subscriber's row and read its evidence. (Ownership of these subscriptions changes only
            // under their lock, which this transaction holds, or by an alias merge, which deletes the row.)
            preloaded = (row.user, row.evidenceJSON)
        } else {
            try await Self.lock(tx, locked.map { "user:\($0)" })
        }
        if tx.dialect == .postgres, !alreadyLocked {
            // An alias merge may have moved these subscriptions before the users were locked: look again (with
            // the evidence, which is usually all that is needed), and lock whoever owns them now.
            let fresh = try await Self.ownersAndEvidence(tx, originals, user: user)
            if fresh.owners == owners, write.appUserID == nil {
                if let user { preloaded = (user, fresh.evidenceJSON) }
            } else {
                owners = fresh.owners
                user = try await target()
                let now = Set(user.map { [$0] } ?? []).union(owners.values)
                try await Self.lock(tx, now.subtracting(locked).map { "user:\($0)" })
                locked.formUnion(now)
            }
        }
        guard let user else {
            if originals.isEmpty {
                try await Self.recordNotification(tx, write, notificationID, evidenceID, status: "recorded", pending: nil, now: now)
                return (.recorded, [])
            }
            let parked = try evidenceEncoder.encode(write.evidence)
            try await Self.recordNotification(tx, write, notificationID, evidenceID, status: "pending", pending: parked, now: now)
            return (.pending, [])
        }
        var incoming = write.evidence
        var events: [(String, String, EventCause, String?, [String: String])] = []
        var newlyOwned: [String] = []
        // Subscriptions another subscriber owns, by owner: each owner's evidence is read and rewritten once
        // however many of its subscriptions this write names.
        var moving: [String: Set<String>] = [:]
        for original in originals {
            guard let owner = owners[original] else {
                try await tx.query(
                    "INSERT INTO ownership (original_transaction_id, app_user_id, bundle_id) VALUES (?, ?, ?) ON CONFLICT (original_transaction_id) DO NOTHING",
                    [.text(original), .text(user), .text(write.bundleID)])
                newlyOwned.append(original)
                continue
            }
            guard owner != user else { continue }
            moving[owner, default: []].insert(ProjectScope.value(ofKey: original))
            switch policy {
            case .transfer:
                try await tx.query(
                    "UPDATE ownership SET app_user_id = ? WHERE original_transaction_id = ?", [.text(user), .text(original)])
                let detail = [
                    "original_transaction_id": ProjectScope.value(ofKey: original), "from": ProjectScope.value(ofKey: owner),
                    "to": ProjectScope.value(ofKey: user),
                ]
                events.append((owner, "subscription_transferred_out", .identity, nil, detail))
                events.append((user, "subscription_transferred_in", .identity, nil, detail))
            case .keepFirst:
                events.append((user, "transfer_refused", .identity, nil, [
                    "original_transaction_id": ProjectScope.value(ofKey: original), "owner": ProjectScope.value(ofKey: owner),
                    "requester": ProjectScope.value(ofKey: user),
                ]))
            }
        }
        for (owner, subscriptions) in moving.sorted(by: { $0.key < $1.key }) {
            switch policy {
            case .transfer:
                // The subscriptions move with everything observed about them.
                if var previous = try await Self.loadEvidence(tx, owner, cache) {
                    incoming.formUnion(previous.removeSubscriptions(subscriptions))
                    try await saveEvidence(tx, owner, write.bundleID, previous, now: now)
                }
            case .keepFirst:
                // The first owner keeps them, and what this write observed about them.
                let kept = incoming.removeSubscriptions(subscriptions)
                if var existing = try await Self.loadEvidence(tx, owner, cache) {
                    existing.formUnion(kept)
                    try await saveEvidence(tx, owner, write.bundleID, existing, now: now)
                }
            }
        }
        var evidence: EvidenceSet
        if let preloaded, preloaded.user == user {
            evidence = try preloaded.json.map { try cache.evidence($0, for: user) } ?? EvidenceSet()
        } else {
            evidence = try await Self.loadEvidence(tx, user, cache) ?? EvidenceSet()
        }
        evidence.formUnion(incoming)
        // Notifications parked because nobody owned their subscriptions apply once somebody does.
        if !newlyOwned.isEmpty {
            let pending = try await tx.query(
                "SELECT notification_id, type, original_transaction_ids, pending_json, evidence_id FROM notifications WHERE status = 'pending' ORDER BY received_at, notification_id",
                [])
            for row in pending {
                let ids = (row["original_transaction_ids"]?.string ?? "").split(separator: ",").map(String.init)
                guard ids.contains(where: newlyOwned.contains), let json = row["pending_json"]?.string,
                    let parked = try? JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
                else { continue }
                evidence.formUnion(parked)
                try await tx.query(
                    "UPDATE notifications SET status = 'applied', pending_json = NULL WHERE notification_id = ?",
                    [row["notification_id"] ?? .null])
                events.append((user, row["type"]?.string ?? "notification", .notification, row["notification_id"]?.string, [
                    "notification_id": row["notification_id"]?.string ?? "", "applied": "late",
                ]))
            }
        }
        var detail = write.detail
        detail["kind"] = write.kind
        var pending = [PendingEvent(appUserID: user, type: write.eventType, cause: write.cause, causeID: write.notificationID, detail: detail)]
        for (who, type, cause, causeID, facts) in events {
            pending.append(PendingEvent(appUserID: who, type: type, cause: cause, causeID: causeID ?? write.notificationID, detail: facts))
        }
        try await save(tx, user, write.bundleID, evidence, events: pending, evidenceID: evidenceID, now: now)
        // Rows written: the subscriber's, and the other party's in a transfer or refused transfer.
        return (.applied(appUserID: ProjectScope.value(ofKey: user)), Set([user] + events.map { $0.0 }))
    }

    /// Marks a claimed notification `recorded` or `pending` (or inserts the row for evidence without one).
    static func recordNotification(
        _ tx: any SQLTransaction, _ write: EvidenceWrite, _ id: String, _ evidenceID: Int64, status: String, pending: String?,
        now: Date
    ) async throws {
        if write.notificationID != nil {
            try await tx.query(
                "UPDATE notifications SET status = ?, pending_json = ? WHERE notification_id = ?",
                [.text(status), pending.map(SQLValue.text) ?? .null, .text(id)])
        } else {
            try await tx.query(
                "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids, pending_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_id) DO NOTHING",
                [.text(id), .text(write.bundleID), .text(write.eventType), .text(status), .text(timestamp(now)),
                 .integer(evidenceID), .text(write.originalTransactionIDs.joined(separator: ",")), pending.map(SQLValue.text) ?? .null])
        }
    }

    /// The kinds of advisory lock, in the order every writer takes them.
    static let lockOrder = ["otid", "user", "notification"]

    /// Takes transaction-scoped locks on PostgreSQL (advisory, by key hash); nothing on SQLite. Keys are
    /// `kind:value` with a kind from ``lockOrder``, taken in that order, then sorted by value.
    static func lock(_ tx: any SQLTransaction, _ keys: [String]) async throws {
        guard tx.dialect == .postgres, !keys.isEmpty else { return }
        func rank(_ key: String) -> Int {
            lockOrder.firstIndex { key.hasPrefix($0 + ":") } ?? lockOrder.count
        }
        let sorted = Set(keys).map { (rank: rank($0), key: $0) }.sorted { ($0.rank, $0.key) < ($1.rank, $1.key) }.map(\.key)
        // One statement per chunk (a target list holds at most 1,664 entries); the locks are taken left to right,
        // in sorted order, chunk after chunk.
        for start in stride(from: 0, to: sorted.count, by: lockChunk) {
            let chunk = sorted[start..<min(start + lockChunk, sorted.count)]
            let calls = chunk.map { _ in "pg_advisory_xact_lock(hashtext(?))" }.joined(separator: ", ")
            try await tx.query("SELECT \(calls)", chunk.map(SQLValue.text))
        }
    }

    /// The most advisory locks one statement takes (PostgreSQL refuses target lists over 1,664 entries).
    static let lockChunk = 1_000

    static func insertEvidence(_ tx: any SQLTransaction, _ write: EvidenceWrite, digest: String, now: Date) async throws -> Int64 {
        let inserted = try await tx.query(
            "INSERT INTO evidence (digest, bundle_id, kind, received_at, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING id",
            [.text(digest), .text(write.bundleID), .text(write.kind), .text(timestamp(now)), .text(write.rawBody)])
        if let id = inserted.first?["id"]?.int { return id }
        return try await tx.query("SELECT id FROM evidence WHERE digest = ?", [.text(digest)]).first?["id"]?.int ?? 0
    }

    static func canonical(_ tx: any SQLTransaction, _ appUserID: String) async throws -> String {
        try await tx.query("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(appUserID)]).first?["app_user_id"]?.string
            ?? appUserID
    }

    /// Who owns each of these subscriptions (those nobody owns are absent): on PostgreSQL one keyed lookup per id
    /// (``ownedSQL``), on SQLite an `IN` list.
    static func owners(_ tx: any SQLTransaction, _ originals: [String]) async throws -> [String: String] {
        guard !originals.isEmpty else { return [:] }
        var rows: [SQLRow] = []
        if tx.dialect == .postgres {
            rows = try await tx.query(ownedSQL, [.texts(originals)])
        } else {
            // SQLite binds at most 32,766 parameters a statement: chunks keep any number of ids in bounds.
            for start in stride(from: 0, to: originals.count, by: lockChunk) {
                let chunk = originals[start..<min(start + lockChunk, originals.count)]
                rows += try await tx.query(
                    "SELECT original_transaction_id AS id, app_user_id FROM ownership WHERE original_transaction_id IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))",
                    chunk.map(SQLValue.text))
            }
        }
        var owners: [String: String] = [:]
        for row in rows {
            if let original = row["id"]?.string, let user = row["app_user_id"]?.string { owners[original] = user }
        }
        return owners
    }

    /// A subscriber's evidence, for rewriting: on PostgreSQL its row is locked (`FOR UPDATE`) until the commit.
    static func loadEvidence(_ tx: any SQLTransaction, _ appUserID: String, _ cache: EvidenceCache) async throws -> EvidenceSet? {
        let lock = tx.dialect == .postgres ? " FOR UPDATE" : ""
        guard let json = try await tx.query("SELECT evidence_json FROM subscribers WHERE app_user_id = ?\(lock)", [.text(appUserID)])
            .first?["evidence_json"]?.string
        else { return nil }
        return try cache.evidence(json, for: appUserID)
    }

    func saveEvidence(
        _ tx: any SQLTransaction, _ appUserID: String, _ bundleID: String, _ evidence: EvidenceSet, now: Date
    ) async throws {
        let json = try evidenceEncoder.encode(evidence)
        try await tx.query(
            "INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (app_user_id) DO UPDATE SET evidence_json = excluded.evidence_json, updated_at = excluded.updated_at",
            [.text(appUserID), .text(bundleID), .text(json), .text(Self.timestamp(now)), .text(Self.timestamp(now))])
        evidenceCache.remember(json, evidence, for: appUserID)
    }

    static func insertEvent(
        _ tx: any SQLTransaction, _ appUserID: String, _ type: String, _ cause: EventCause, _ causeID: String?,
        _ evidenceID: Int64?, _ detail: [String: String], _ now: Date
    ) async throws {
        let json = EventDetailWriter.json(detail)
        try await tx.query(
            "INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(appUserID), .text(timestamp(now)), .text(type), .text(cause.rawValue), causeID.map(SQLValue.text) ?? .null,
             evidenceID.map(SQLValue.integer) ?? .null, .text(json)])
    }

    // MARK: - Reads

    /// A subscriber by id or alias, in one project.
    public func subscriber(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberRecord? {
        guard let snapshot = try await snapshot(appUserID, in: project) else { return nil }
        return snapshot.record(evidence: try decodeEvidence(snapshot))
    }

    /// A snapshot's evidence, through the cache.
    public func decodeEvidence(_ snapshot: SubscriberSnapshot) throws -> EvidenceSet {
        try evidenceCache.evidence(snapshot.evidenceJSON, for: snapshot.storageKey)
    }

    /// A subscriber's row by id or alias in one project, in one statement (alias resolution and alias list
    /// included).
    public func snapshot(_ appUserID: String, in project: ProjectScope) async throws -> SubscriberSnapshot? {
        let key = project.key(appUserID)
        let aliases =
            database.dialect == .sqlite
            ? "(SELECT json_group_array(alias) FROM aliases WHERE app_user_id = s.app_user_id)"
            : "(SELECT COALESCE(json_agg(alias), '[]')::text FROM aliases WHERE app_user_id = s.app_user_id)"
        guard let row = try await database.read(
            "SELECT s.app_user_id, s.bundle_id, s.evidence_json, s.created_at, \(aliases) AS aliases_json FROM subscribers s WHERE s.app_user_id = COALESCE((SELECT app_user_id FROM aliases WHERE alias = ?), ?)",
            [.text(key), .text(key)]).first,
            let user = row["app_user_id"]?.string, let json = row["evidence_json"]?.string
        else { return nil }
        let aliasList = (try? JSONDecoder().decode([String].self, from: Data((row["aliases_json"]?.string ?? "[]").utf8))) ?? []
        return SubscriberSnapshot(
            storageKey: user, appUserID: ProjectScope.value(ofKey: user), bundleID: row["bundle_id"]?.string ?? "", evidenceJSON: json,
            aliases: aliasList.map(ProjectScope.value(ofKey:)).sorted(), createdAt: Self.date(row["created_at"]))
    }

    /// A subscriber's events in one project, oldest first.
    public func events(_ appUserID: String, in project: ProjectScope, limit: Int) async throws -> [EventRecord] {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, project.key(appUserID))
            return try await tx.query(
                "SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json FROM events WHERE app_user_id = ? ORDER BY id LIMIT ?",
                [.text(user), .integer(Int64(limit))]
            ).map { row in
                EventRecord(
                    id: row["id"]?.int ?? 0, appUserID: ProjectScope.value(ofKey: row["app_user_id"]?.string ?? ""), createdAt: Self.date(row["created_at"]),
                    type: row["type"]?.string ?? "", cause: EventCause(rawValue: row["cause"]?.string ?? "") ?? .client,
                    causeID: row["cause_id"]?.string, evidenceID: row["evidence_id"]?.int,
                    detail: (try? JSONDecoder().decode([String: String].self, from: Data((row["detail_json"]?.string ?? "{}").utf8))) ?? [:])
            }
        }
    }

    /// Merges `alias` into `appUserID`, both in `project`.
    public func alias(_ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date) async throws {
        let cache = evidenceCache
        let changed = try await database.withTransaction { tx -> [String] in
            let target = try await Self.canonical(tx, project.key(appUserID))
            let source = try await Self.canonical(tx, project.key(alias))
            try await Self.lock(tx, ["user:\(target)", "user:\(source)"])
            guard source != target else { return [] }
            var evidence = try await Self.loadEvidence(tx, target, cache) ?? EvidenceSet()
            if let merged = try await Self.loadEvidence(tx, source, cache) { evidence.formUnion(merged) }
            try await saveEvidence(tx, target, bundleID, evidence, now: now)
            try await tx.query("DELETE FROM subscribers WHERE app_user_id = ?", [.text(source)])
            try await tx.query("UPDATE ownership SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query("UPDATE aliases SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query("UPDATE events SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query(
                "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET app_user_id = excluded.app_user_id",
                [.text(source), .text(target)])
            try await Self.insertEvent(
                tx, target, "alias_added", .identity, nil, nil,
                ["alias": ProjectScope.value(ofKey: source), "app_user_id": ProjectScope.value(ofKey: target)], now)
            return [target, source]
        }
        changes.publish(.changed(changed))
    }

    /// Remembers an API key hash.
    public func registerAPIKey(hash: String, kind: APIKeyRecord.Kind, bundleID: String) async throws {
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "INSERT INTO api_keys (key_hash, kind, bundle_id) VALUES (?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET kind = excluded.kind, bundle_id = excluded.bundle_id",
                [.text(hash), .text(kind.rawValue), .text(bundleID)])
        }
    }

    /// An API key by hash.
    public func apiKey(hash: String) async throws -> APIKeyRecord? {
        try await database.withReadTransaction { tx in
            guard let row = try await tx.query("SELECT kind, bundle_id FROM api_keys WHERE key_hash = ?", [.text(hash)]).first,
                let kind = APIKeyRecord.Kind(rawValue: row["kind"]?.string ?? "")
            else { return nil }
            return APIKeyRecord(kind: kind, bundleID: row["bundle_id"]?.string ?? "")
        }
    }

    /// Every table in a stable order.
    public func dump() async throws -> String {
        try await database.withReadTransaction { tx in
            var lines: [String] = []
            let tables: [(String, String, String)] = [
                ("subscribers", "app_user_id, bundle_id, evidence_json", "app_user_id"),
                ("aliases", "alias, app_user_id", "alias"),
                ("ownership", "original_transaction_id, app_user_id, bundle_id", "original_transaction_id"),
                ("evidence", "id, digest, bundle_id, kind, body", "id"),
                ("notifications", "notification_id, type, status, original_transaction_ids, pending_json", "notification_id"),
                ("events", "id, app_user_id, type, cause, cause_id, evidence_id, detail_json", "id"),
                ("api_keys", "key_hash, kind, bundle_id", "key_hash"),
            ]
            for (table, columns, order) in tables {
                lines.append("# \(table)")
                for row in try await tx.query("SELECT \(columns) FROM \(table) ORDER BY \(order)", []) {
                    lines.append(row.keys.sorted().map { "\($0)=\(row[$0].map(String.init(describing:)) ?? "")" }.joined(separator: " | "))
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Closes the database.
    public func close() async throws { try await database.close() }
}

extension EvidenceSet {
    /// Removes and returns the observations of these subscriptions (original transaction ids), in one pass.
    mutating func removeSubscriptions(_ originalTransactionIDs: Set<String>) -> EvidenceSet {
        var removed = EvidenceSet()
        var kept = EvidenceSet()
        for transaction in transactions {
            if originalTransactionIDs.contains(transaction.originalTransactionID) { removed.insert(transaction) } else { kept.insert(transaction) }
        }
        for renewal in renewals {
            if originalTransactionIDs.contains(renewal.originalTransactionID) { removed.insert(renewal) } else { kept.insert(renewal) }
        }
        self = kept
        return removed
    }
}
