import Foundation
import SubscriptionEngine

/// The steps of ``SQLStore/apply(_:policy:now:)`` that PostgreSQL runs as one statement each, where SQLite runs
/// several: on PostgreSQL every statement is a network round trip, and round trips, not the work inside them,
/// bound how many notifications a second the server can commit.
extension SQLStore {
    /// What the first write of an apply learns.
    struct Claim {
        /// The raw evidence row (inserted now, or the same evidence stored before).
        var evidenceID: Int64
        /// Whether this call claimed the notification id (always true without one).
        var claimed: Bool
        /// Who owns the evidence's subscriptions now.
        var owners: [String: String]
        /// PostgreSQL, for a notification whose subscriptions one subscriber owns: that subscriber's row,
        /// locked (`FOR UPDATE`), with its stored evidence. (Only then: a writer that will take advisory user
        /// locks must not hold a row lock first, or it could deadlock with an alias merge, which takes them in
        /// the other order.)
        var locked: (user: String, evidenceJSON: String)?
    }

    /// Stores the raw evidence, claims the notification id, and reads who owns the subscriptions.
    static func claim(_ tx: any SQLTransaction, _ write: EvidenceWrite, now: Date) async throws -> Claim {
        let digest = write.digest
        let originals = write.originalTransactionIDs.joined(separator: ",")
        guard tx.dialect.claimsInOneStatement else {
            let evidenceID = try await insertEvidence(tx, write, digest: digest, now: now)
            var claimed = true
            if let id = write.notificationID {
                claimed = try await !tx.query(
                    "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids) VALUES (?, ?, ?, 'applied', ?, ?, ?) ON CONFLICT (notification_id) DO NOTHING RETURNING notification_id",
                    [
                        .text(id), .text(write.bundleID), .text(write.eventType), .text(timestamp(now)),
                        .integer(evidenceID), .text(originals),
                    ]
                ).isEmpty
            }
            return Claim(
                evidenceID: evidenceID, claimed: claimed, owners: try await owners(tx, write.originalTransactionIDs),
                locked: nil)
        }
        // The evidence row inserted here is invisible to the rest of this statement, and one stored before is
        // visible: so `evidence_id` has exactly one row either way.
        let stored = StoredRaw(write.rawBody)
        let row = try await tx.query(
            """
            WITH parts AS (
                INSERT INTO evidence_parts (digest, body) SELECT * FROM unnest(?, ?) ON CONFLICT (digest) DO NOTHING),
            inserted AS (
                INSERT INTO evidence (digest, bundle_id, kind, received_at, body, form) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (digest) DO NOTHING RETURNING id),
            evidence_id AS (SELECT id FROM inserted UNION ALL SELECT id FROM evidence WHERE digest = ?),
            claimed AS (
                INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids)
                SELECT ?::text, ?, ?, 'applied', ?, (SELECT id FROM evidence_id LIMIT 1), ? WHERE ?::text IS NOT NULL
                ON CONFLICT (notification_id) DO NOTHING RETURNING notification_id),
            owned AS (\(ownedSQL))
            SELECT (SELECT id FROM evidence_id LIMIT 1) AS id, (SELECT count(*) FROM claimed) AS claimed,
                (SELECT json_agg(json_build_array(id, app_user_id))::text FROM owned) AS owners,
                locked.app_user_id AS locked_user, locked.evidence_json AS locked_evidence
            FROM (SELECT 1) AS one LEFT JOIN LATERAL (
                SELECT row.app_user_id, row.evidence_json
                FROM (SELECT min(app_user_id) AS id FROM owned HAVING count(DISTINCT app_user_id) = 1) AS sole
                CROSS JOIN LATERAL (
                    SELECT app_user_id, evidence_json FROM subscribers WHERE app_user_id = sole.id AND ?::text IS NULL LIMIT 1 FOR UPDATE
                ) AS row
            ) AS locked ON true
            """,
            [
                .texts(stored.parts.keys.sorted()), .texts(stored.parts.keys.sorted().map { stored.parts[$0] ?? "" }),
                .text(digest), .text(write.bundleID), .text(write.kind), .text(timestamp(now)), .text(stored.body),
                stored.form.map(SQLValue.text) ?? .null,
                .text(digest),
                write.notificationID.map(SQLValue.text) ?? .null, .text(write.bundleID), .text(write.eventType),
                .text(timestamp(now)),
                .text(originals), write.notificationID.map(SQLValue.text) ?? .null,
                .texts(write.originalTransactionIDs),
                write.appUserID.map(SQLValue.text) ?? .null,
            ]
        ).first
        var locked: (String, String)?
        if let user = row?["locked_user"]?.string, let json = row?["locked_evidence"]?.string { locked = (user, json) }
        return Claim(
            evidenceID: row?["id"]?.int ?? 0, claimed: write.notificationID == nil || (row?["claimed"]?.int ?? 0) > 0,
            owners: try decodeOwners(row?["owners"]), locked: locked)
    }

    /// PostgreSQL: `(id, app_user_id)` for each owned subscription among the ids in the `text[]` bound here, one
    /// keyed lookup per id whatever the plan (PostgreSQL keeps one generic plan per statement, made when the tables
    /// may have been small enough for a scan to look cheaper, so every lookup is written as `LATERAL (… LIMIT 1)`).
    static let ownedSQL = """
        SELECT o.id, owner.app_user_id FROM unnest(?) AS o(id)
            CROSS JOIN LATERAL (SELECT app_user_id FROM ownership WHERE original_transaction_id = o.id LIMIT 1) AS owner
        """

    /// The owners `json_agg` returned: `[[id, app_user_id], …]`, or NULL for none.
    static func decodeOwners(_ value: SQLValue?) throws -> [String: String] {
        guard value?.string != nil else { return [:] }
        let pairs = try decodeStored([[String]].self, value, empty: "[]", what: "owners list")
        var owners: [String: String] = [:]
        for pair in pairs where pair.count == 2 { owners[pair[0]] = pair[1] }
        return owners
    }

    /// PostgreSQL, once the users are locked: who owns the subscriptions now, and `user`'s stored evidence (its row
    /// locked, as every read of evidence that will be rewritten is).
    static func ownersAndEvidence(_ tx: any SQLTransaction, _ originals: [String], user: String?) async throws
        -> (owners: [String: String], evidenceJSON: String?)
    {
        let row = try await tx.query(
            """
            WITH owned AS (\(ownedSQL))
            SELECT (SELECT evidence_json FROM subscribers WHERE app_user_id = ? FOR UPDATE) AS evidence,
                (SELECT json_agg(json_build_array(id, app_user_id))::text FROM owned) AS owners
            """,
            [.texts(originals), user.map(SQLValue.text) ?? .null]
        ).first
        return (try decodeOwners(row?["owners"]), row?["evidence"]?.string)
    }

    /// Saves a subscriber row and appends the events in order (one statement where the database allows).
    func save(
        _ tx: any SQLTransaction, _ save: EvidenceSave, events: [PlannedEvent], evidenceID: Int64, now: Date
    ) async throws {
        let row = try encoded(save)
        let time = Self.timestamp(now)
        let subscriber = SQLRowSet(
            "s", columns: ["u", "b", "j"], rows: [[.text(save.user), .text(save.bundleID), .text(row.json)]])
        // The events as a batch (a receipt that transfers thousands of subscriptions writes two events per
        // subscription), inserted in their order; an absent cause id is stored as NULL.
        let planned = SQLRowSet(
            "e", columns: ["position", "u", "t", "c", "ci", "d"],
            rows: events.enumerated().map { position, event in
                [
                    .integer(Int64(position)), .text(event.appUserID), .text(event.type), .text(event.cause.rawValue),
                    .text(event.causeID ?? ""), .text(EventDetailWriter.json(event.detail)),
                ]
            })
        try await tx.dialect.run(
            [
                SQLBatchStatement(
                    over: subscriber,
                    """
                    INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at)
                    SELECT u, b, j, ?, ? FROM s WHERE true
                    ON CONFLICT (app_user_id) DO UPDATE SET evidence_json = excluded.evidence_json,
                        updated_at = excluded.updated_at
                    """, [.text(time), .text(time)]),
                SQLBatchStatement(
                    over: planned,
                    """
                    INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json)
                    SELECT u, ?, t, c, NULLIF(ci, ''), ?, d FROM e ORDER BY position
                    """, [.text(time), .integer(evidenceID)]),
            ], in: tx)
        evidenceCache.remember(row.json, row.evidence, for: save.user)
    }
}
