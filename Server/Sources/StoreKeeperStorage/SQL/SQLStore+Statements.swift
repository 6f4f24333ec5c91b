import Foundation
import SubscriptionEngine

/// The statements every writer shares: locks, raw evidence, aliases, owners, evidence rows and events.
extension SQLStore {
    /// The kinds of advisory lock, in the order every writer takes them.
    static let lockOrder = ["otid", "user", "notification"]

    /// Takes transaction-scoped locks where writers lock (``SQLDialect/lock(_:in:)``). Keys are `kind:value` with
    /// a kind from ``lockOrder``, taken in that order, then sorted by value.
    static func lock(_ tx: any SQLTransaction, _ keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        func rank(_ key: String) -> Int {
            lockOrder.firstIndex { key.hasPrefix($0 + ":") } ?? lockOrder.count
        }
        let sorted = Set(keys).map { (rank: rank($0), key: $0) }.sorted { ($0.rank, $0.key) < ($1.rank, $1.key) }.map(
            \.key)
        try await tx.dialect.lock(sorted, in: tx)
    }

    static func insertEvidence(_ tx: any SQLTransaction, _ write: EvidenceWrite, digest: String, now: Date) async throws
        -> Int64
    {
        let stored = StoredRaw(write.rawBody)
        try await insertParts(tx, stored.parts)
        let inserted = try await tx.query(
            "INSERT INTO evidence (digest, bundle_id, kind, received_at, body, form) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING id",
            [
                .text(digest), .text(write.bundleID), .text(write.kind), .text(timestamp(now)), .text(stored.body),
                stored.form.map(SQLValue.text) ?? .null,
            ])
        if let id = inserted.first?["id"]?.int { return id }
        return try await tx.query("SELECT id FROM evidence WHERE digest = ?", [.text(digest)]).first?["id"]?.int ?? 0
    }

    static func canonical(_ tx: any SQLTransaction, _ appUserID: String) async throws -> String {
        try await tx.query("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(appUserID)]).first?["app_user_id"]?
            .string
            ?? appUserID
    }

    /// Who owns each of these subscriptions (those nobody owns are absent): one keyed lookup per id.
    static func owners(_ tx: any SQLTransaction, _ originals: [String]) async throws -> [String: String] {
        let rows = try await tx.dialect.rows(
            SQLBatchStatement(
                over: SQLRowSet("o", column: "id", texts: originals),
                "SELECT o.id, w.app_user_id FROM o JOIN ownership w ON w.original_transaction_id = o.id"), in: tx)
        var owners: [String: String] = [:]
        for row in rows {
            if let original = row["id"]?.string, let user = row["app_user_id"]?.string { owners[original] = user }
        }
        return owners
    }

    /// A subscriber's evidence, for rewriting: on PostgreSQL its row is locked (`FOR UPDATE`) until the commit.
    static func loadEvidence(_ tx: any SQLTransaction, _ appUserID: String, _ cache: EvidenceCache) async throws
        -> StoredEvidence?
    {
        let lock = tx.dialect.rowLock
        guard
            let json = try await tx.query(
                "SELECT evidence_json FROM subscribers WHERE app_user_id = ?\(lock)", [.text(appUserID)]
            )
            .first?["evidence_json"]?.string
        else { return nil }
        return StoredEvidence(json: json, evidence: try cache.evidence(json, for: appUserID))
    }

    /// The JSON to store for `save`, and the evidence it holds: an addition extends the stored JSON (only the
    /// new observations are encoded), a replacement is encoded whole.
    func encoded(_ save: EvidenceSave) throws -> StoredEvidence {
        switch save.change {
        case .whole(let evidence):
            return StoredEvidence(json: try evidenceEncoder.encode(evidence), evidence: evidence)
        case .union(let stored?, let added):
            let extended = try evidenceEncoder.extend(stored.json, of: stored.evidence, adding: added)
            return StoredEvidence(json: extended.json, evidence: extended.evidence)
        case .union(nil, let added):
            return StoredEvidence(json: try evidenceEncoder.encode(added), evidence: added)
        }
    }

    /// The upsert of one subscriber row: `(app_user_id, bundle_id, evidence_json, created_at, updated_at)`.
    static let subscriberUpsert =
        "INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (app_user_id) DO UPDATE SET evidence_json = excluded.evidence_json, updated_at = excluded.updated_at"

    /// Writes one subscriber row and remembers its decoded evidence.
    func saveEvidence(_ tx: any SQLTransaction, _ save: EvidenceSave, now: Date) async throws {
        let row = try encoded(save)
        let time = Self.timestamp(now)
        try await tx.query(
            Self.subscriberUpsert, [.text(save.user), .text(save.bundleID), .text(row.json), .text(time), .text(time)])
        evidenceCache.remember(row.json, row.evidence, for: save.user)
    }

    static func insertEvent(
        _ tx: any SQLTransaction, _ appUserID: String, _ type: String, _ cause: EventCause, _ causeID: String?,
        _ evidenceID: Int64?, _ detail: [String: EventValue], _ now: Date
    ) async throws {
        try await insertEvents(tx, [(appUserID, type, cause, causeID, evidenceID, detail, now)])
    }

    /// One event row to insert: customer key, type, cause, cause id, evidence id, detail, time.
    typealias EventRow = (
        appUserID: String, type: String, cause: EventCause, causeID: String?, evidenceID: Int64?,
        detail: [String: EventValue], at: Date
    )

    /// Inserts `rows` into the events table in one multi-row statement (the one place its columns are written).
    static func insertEvents(_ tx: any SQLTransaction, _ rows: [EventRow]) async throws {
        guard !rows.isEmpty else { return }
        let values = rows.flatMap { row -> [SQLValue] in
            [
                .text(row.appUserID), .text(timestamp(row.at)), .text(row.type), .text(row.cause.rawValue),
                row.causeID.map(SQLValue.text) ?? .null, row.evidenceID.map(SQLValue.integer) ?? .null,
                .text(EventDetailWriter.json(row.detail)),
            ]
        }
        try await tx.query(
            "INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json) VALUES "
                + Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", "), values)
    }

    /// How many keys one statement names.
    static let keysPerStatement = 400

    /// `items` in runs of at most ``keysPerStatement``, one statement's worth each.
    static func chunks<Item>(_ items: [Item]) -> [[Item]] {
        stride(from: 0, to: items.count, by: keysPerStatement).map {
            Array(items[$0..<min(items.count, $0 + keysPerStatement)])
        }
    }
}
