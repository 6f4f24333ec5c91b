public import Foundation
import Crypto
public import SubscriptionEngine

/// The one implementation of ``Store``: plain SQL with bound parameters over any ``SQLDatabase``.
public struct SQLStore: Store {
    /// The database.
    public let database: any SQLDatabase

    /// Wraps a database.
    /// - Parameter database: SQLite or PostgreSQL.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func timestamp(_ date: Date) -> String {
        String(format: "%.3f", date.timeIntervalSince1970)
    }

    static func date(_ value: SQLValue?) -> Date {
        Date(timeIntervalSince1970: Double(value?.string ?? "") ?? 0)
    }

    // MARK: - Migrations

    /// Applies every migration not yet applied, in order, each in its own transaction.
    public func migrate() async throws -> Int {
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
            ]
        ]
        try await database.withTransaction { tx in
            try await tx.query("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)", [])
        }
        var version = 0
        for (index, statements) in migrations.enumerated() {
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

    // MARK: - Writes

    /// Stores and applies evidence in one transaction; see ``Store/apply(_:policy:now:)``.
    public func apply(_ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws -> ApplyOutcome {
        let evidenceJSON = try Self.encoder.encode(write.evidence)
        let dialect = database.dialect
        return try await database.withTransaction { tx in
            // Serialise work on the same subscriptions, then on the same subscribers (always in this order, each
            // sorted, so two writers cannot deadlock). SQLite transactions are serial already.
            try await Self.lock(tx, dialect, write.originalTransactionIDs.map { "otid:\($0)" })
            if let id = write.notificationID {
                let seen = try await tx.query("SELECT status FROM notifications WHERE notification_id = ?", [.text(id)])
                if !seen.isEmpty { return .duplicate }
            }
            let evidenceID = try await Self.insertEvidence(tx, write, now: now)
            // Who does this evidence belong to?
            var target: String?
            if let posted = write.appUserID {
                target = try await Self.canonical(tx, posted)
            } else {
                for original in write.originalTransactionIDs {
                    if let owner = try await Self.owner(tx, original) {
                        target = owner
                        break
                    }
                }
            }
            var people = Set(target.map { [$0] } ?? [])
            for original in write.originalTransactionIDs {
                if let owner = try await Self.owner(tx, original) { people.insert(owner) }
            }
            try await Self.lock(tx, dialect, people.map { "user:\($0)" })
            if target == nil, write.originalTransactionIDs.isEmpty {
                try await tx.query(
                    "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids) VALUES (?, ?, ?, 'recorded', ?, ?, '')",
                    [.text(write.notificationID ?? "evidence-\(evidenceID)"), .text(write.bundleID), .text(write.eventType),
                     .text(Self.timestamp(now)), .integer(evidenceID)])
                return .recorded
            }
            guard let user = target else {
                try await tx.query(
                    "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids, pending_json) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)",
                    [.text(write.notificationID ?? "evidence-\(evidenceID)"), .text(write.bundleID), .text(write.eventType),
                     .text(Self.timestamp(now)), .integer(evidenceID),
                     .text(write.originalTransactionIDs.joined(separator: ",")), .text(String(decoding: evidenceJSON, as: UTF8.self))])
                return .pending
            }
            var incoming = write.evidence
            var events: [(String, String, EventCause, String?, [String: String])] = []
            for original in write.originalTransactionIDs {
                guard let owner = try await Self.owner(tx, original) else {
                    try await tx.query(
                        "INSERT INTO ownership (original_transaction_id, app_user_id, bundle_id) VALUES (?, ?, ?) ON CONFLICT (original_transaction_id) DO NOTHING",
                        [.text(original), .text(user), .text(write.bundleID)])
                    continue
                }
                guard owner != user else { continue }
                switch policy {
                case .transfer:
                    try await tx.query(
                        "UPDATE ownership SET app_user_id = ? WHERE original_transaction_id = ?", [.text(user), .text(original)])
                    if var previous = try await Self.loadEvidence(tx, owner) {
                        let moved = previous.removeSubscription(original)
                        incoming.formUnion(moved)
                        try await Self.saveEvidence(tx, owner, write.bundleID, previous, now: now)
                    }
                    let detail = ["original_transaction_id": original, "from": owner, "to": user]
                    events.append((owner, "subscription_transferred_out", .identity, nil, detail))
                    events.append((user, "subscription_transferred_in", .identity, nil, detail))
                case .keepFirst:
                    let kept = incoming.removeSubscription(original)
                    if var existing = try await Self.loadEvidence(tx, owner) {
                        existing.formUnion(kept)
                        try await Self.saveEvidence(tx, owner, write.bundleID, existing, now: now)
                    }
                    events.append((user, "transfer_refused", .identity, nil, ["original_transaction_id": original, "owner": owner, "requester": user]))
                }
            }
            var evidence = try await Self.loadEvidence(tx, user) ?? EvidenceSet()
            evidence.formUnion(incoming)
            // Notifications that arrived before anyone owned these subscriptions apply now.
            let owned = try await tx.query("SELECT original_transaction_id FROM ownership WHERE app_user_id = ?", [.text(user)])
                .compactMap { $0["original_transaction_id"]?.string }
            if !owned.isEmpty {
                let pending = try await tx.query(
                    "SELECT notification_id, type, original_transaction_ids, pending_json, evidence_id FROM notifications WHERE status = 'pending' ORDER BY received_at, notification_id",
                    [])
                for row in pending {
                    let ids = (row["original_transaction_ids"]?.string ?? "").split(separator: ",").map(String.init)
                    guard ids.contains(where: owned.contains), let json = row["pending_json"]?.string,
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
            try await Self.saveEvidence(tx, user, write.bundleID, evidence, now: now)
            var detail = write.detail
            detail["kind"] = write.kind
            try await Self.insertEvent(tx, user, write.eventType, write.cause, write.notificationID, evidenceID, detail, now)
            for (who, type, cause, causeID, facts) in events {
                try await Self.insertEvent(tx, who, type, cause, causeID ?? write.notificationID, evidenceID, facts, now)
            }
            if let id = write.notificationID {
                try await tx.query(
                    "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids) VALUES (?, ?, ?, 'applied', ?, ?, ?)",
                    [.text(id), .text(write.bundleID), .text(write.eventType), .text(Self.timestamp(now)), .integer(evidenceID),
                     .text(write.originalTransactionIDs.joined(separator: ","))])
            }
            return .applied(appUserID: user)
        }
    }

    /// Takes transaction-scoped locks on PostgreSQL (advisory, by key hash); nothing on SQLite.
    static func lock(_ tx: any SQLTransaction, _ dialect: SQLDialect, _ keys: [String]) async throws {
        guard dialect == .postgres else { return }
        for key in Set(keys).sorted() {
            try await tx.query("SELECT pg_advisory_xact_lock(hashtext(?))", [.text(key)])
        }
    }

    static func insertEvidence(_ tx: any SQLTransaction, _ write: EvidenceWrite, now: Date) async throws -> Int64 {
        let digest = SHA256.hash(data: Data((write.kind + "\n" + write.rawBody).utf8)).map { String(format: "%02x", $0) }.joined()
        if let existing = try await tx.query("SELECT id FROM evidence WHERE digest = ?", [.text(digest)]).first?["id"]?.int {
            return existing
        }
        let rows = try await tx.query(
            "INSERT INTO evidence (digest, bundle_id, kind, received_at, body) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [.text(digest), .text(write.bundleID), .text(write.kind), .text(timestamp(now)), .text(write.rawBody)])
        return rows.first?["id"]?.int ?? 0
    }

    static func canonical(_ tx: any SQLTransaction, _ appUserID: String) async throws -> String {
        try await tx.query("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(appUserID)]).first?["app_user_id"]?.string
            ?? appUserID
    }

    static func owner(_ tx: any SQLTransaction, _ original: String) async throws -> String? {
        try await tx.query("SELECT app_user_id FROM ownership WHERE original_transaction_id = ?", [.text(original)])
            .first?["app_user_id"]?.string
    }

    static func loadEvidence(_ tx: any SQLTransaction, _ appUserID: String) async throws -> EvidenceSet? {
        guard let json = try await tx.query("SELECT evidence_json FROM subscribers WHERE app_user_id = ?", [.text(appUserID)])
            .first?["evidence_json"]?.string
        else { return nil }
        return try JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
    }

    static func saveEvidence(_ tx: any SQLTransaction, _ appUserID: String, _ bundleID: String, _ evidence: EvidenceSet, now: Date)
        async throws
    {
        let json = String(decoding: try encoder.encode(evidence), as: UTF8.self)
        try await tx.query(
            "INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (app_user_id) DO UPDATE SET evidence_json = excluded.evidence_json, updated_at = excluded.updated_at",
            [.text(appUserID), .text(bundleID), .text(json), .text(timestamp(now)), .text(timestamp(now))])
    }

    static func insertEvent(
        _ tx: any SQLTransaction, _ appUserID: String, _ type: String, _ cause: EventCause, _ causeID: String?,
        _ evidenceID: Int64?, _ detail: [String: String], _ now: Date
    ) async throws {
        let json = String(decoding: try encoder.encode(detail), as: UTF8.self)
        try await tx.query(
            "INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [.text(appUserID), .text(timestamp(now)), .text(type), .text(cause.rawValue), causeID.map(SQLValue.text) ?? .null,
             evidenceID.map(SQLValue.integer) ?? .null, .text(json)])
    }

    // MARK: - Reads

    /// A subscriber by id or alias.
    public func subscriber(_ appUserID: String) async throws -> SubscriberRecord? {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, appUserID)
            guard let row = try await tx.query(
                "SELECT app_user_id, bundle_id, evidence_json, created_at FROM subscribers WHERE app_user_id = ?", [.text(user)]).first,
                let json = row["evidence_json"]?.string
            else { return nil }
            let aliases = try await tx.query("SELECT alias FROM aliases WHERE app_user_id = ? ORDER BY alias", [.text(user)])
                .compactMap { $0["alias"]?.string }
            return SubscriberRecord(
                appUserID: user, bundleID: row["bundle_id"]?.string ?? "",
                evidence: try JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8)), aliases: aliases,
                createdAt: Self.date(row["created_at"]))
        }
    }

    /// A subscriber's events, oldest first.
    public func events(_ appUserID: String, limit: Int) async throws -> [EventRecord] {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, appUserID)
            return try await tx.query(
                "SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json FROM events WHERE app_user_id = ? ORDER BY id LIMIT ?",
                [.text(user), .integer(Int64(limit))]
            ).map { row in
                EventRecord(
                    id: row["id"]?.int ?? 0, appUserID: row["app_user_id"]?.string ?? "", createdAt: Self.date(row["created_at"]),
                    type: row["type"]?.string ?? "", cause: EventCause(rawValue: row["cause"]?.string ?? "") ?? .client,
                    causeID: row["cause_id"]?.string, evidenceID: row["evidence_id"]?.int,
                    detail: (try? JSONDecoder().decode([String: String].self, from: Data((row["detail_json"]?.string ?? "{}").utf8))) ?? [:])
            }
        }
    }

    /// Merges `alias` into `appUserID`.
    public func alias(_ alias: String, to appUserID: String, bundleID: String, now: Date) async throws {
        let dialect = database.dialect
        try await database.withTransaction { tx in
            let target = try await Self.canonical(tx, appUserID)
            let source = try await Self.canonical(tx, alias)
            try await Self.lock(tx, dialect, ["user:\(target)", "user:\(source)"])
            guard source != target else { return }
            var evidence = try await Self.loadEvidence(tx, target) ?? EvidenceSet()
            if let merged = try await Self.loadEvidence(tx, source) { evidence.formUnion(merged) }
            try await Self.saveEvidence(tx, target, bundleID, evidence, now: now)
            try await tx.query("DELETE FROM subscribers WHERE app_user_id = ?", [.text(source)])
            try await tx.query("UPDATE ownership SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query("UPDATE aliases SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query("UPDATE events SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query(
                "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET app_user_id = excluded.app_user_id",
                [.text(source), .text(target)])
            try await Self.insertEvent(tx, target, "alias_added", .identity, nil, nil, ["alias": source, "app_user_id": target], now)
        }
    }

    /// Remembers an API key hash.
    public func registerAPIKey(hash: String, kind: APIKeyRecord.Kind, bundleID: String) async throws {
        try await database.withTransaction { tx in
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
    /// Removes and returns the observations of one subscription.
    mutating func removeSubscription(_ originalTransactionID: String) -> EvidenceSet {
        var removed = EvidenceSet()
        var kept = EvidenceSet()
        for transaction in transactions {
            if transaction.originalTransactionID == originalTransactionID { removed.insert(transaction) } else { kept.insert(transaction) }
        }
        for renewal in renewals {
            if renewal.originalTransactionID == originalTransactionID { removed.insert(renewal) } else { kept.insert(renewal) }
        }
        self = kept
        return removed
    }
}
