public import Foundation
import SubscriptionEngine

/// The outbox of announced changes: what a write reads to announce its subscribers' changes, and what it writes
/// in its own transaction — the announced state (with the instant the clock may change it), the events, and one
/// pending delivery per webhook endpoint of the project that wants the event's type.
extension SQLStore {
    /// How an announced state is stored.
    static let announcedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    /// How an announced state is read.
    static let announcedDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// What was announced about each of `users`, with their aliases, first sighting, and whether their project
    /// has a webhook endpoint: one statement over the batch of users.
    static func announcedRows(_ tx: any SQLTransaction, users: [String]) async throws -> [String: AnnouncedRow] {
        let dialect = tx.dialect
        let batch = SQLRowSet(
            "u", columns: ["id", "project"], rows: users.map { [.text($0), .text(ProjectScope.id(ofKey: $0))] })
        let rows = try await dialect.rows(
            SQLBatchStatement(
                over: batch,
                """
                SELECT u.id,
                    (SELECT state_json FROM announced WHERE app_user_id = u.id) AS state,
                    (SELECT created_at FROM subscribers WHERE app_user_id = u.id) AS created,
                    (SELECT \(dialect.jsonArray(of: "alias")) FROM aliases WHERE app_user_id = u.id) AS aliases,
                    (SELECT count(*) FROM (SELECT 1 FROM webhook_endpoints WHERE project = u.project LIMIT 1) AS one) AS listening,
                    (SELECT \(dialect.jsonObject(key: "name", value: "value")) FROM subscriber_attributes WHERE app_user_id = u.id) AS attributes
                FROM u
                """), in: tx)
        var result: [String: AnnouncedRow] = [:]
        for row in rows {
            guard let user = row["id"]?.string else { continue }
            result[user] = AnnouncedRow(
                state: try row["state"]?.string.map { json in
                    do {
                        return try announcedDecoder.decode(AnnouncedState.self, from: Data(json.utf8))
                    } catch {
                        throw StorageError("the stored announced state of \(user) cannot be read: \(error)")
                    }
                },
                aliases: try decodeStored([String].self, row["aliases"], empty: "[]", what: "aliases of \(user)"),
                firstSeen: row["created"]?.string == nil ? nil : date(row["created"]),
                listening: (row["listening"]?.int ?? 0) > 0,
                attributes: try decodeStored(
                    [String: String].self, row["attributes"], empty: "{}", what: "attributes of \(user)"))
        }
        return result
    }

    /// Writes announcements in the write's transaction: each subscriber's last announced state and due instant,
    /// every event (when its project has an endpoint), and a pending delivery per endpoint that wants it.
    static func writeAnnouncements(_ tx: any SQLTransaction, _ planned: [PlannedAnnouncement], now: Date)
        async throws
    {
        guard !planned.isEmpty else { return }
        var latest: [String: Announcement] = [:]
        var order: [String] = []
        for item in planned {
            if latest.updateValue(item.announcement, forKey: item.user) == nil { order.append(item.user) }
        }
        let stateTexts = try order.map {
            String(decoding: try announcedEncoder.encode(latest[$0]!.announced), as: UTF8.self)
        }
        let dues = order.map { latest[$0]?.dueAt.map(timestamp) ?? "" }
        let polls = order.map { latest[$0]?.pollAt.map(timestamp) ?? "" }
        let events = planned.flatMap { item in item.announcement.events.map { (user: item.user, event: $0) } }
        let time = timestamp(now)
        let states = SQLRowSet(
            "a", columns: ["u", "s", "d", "p"],
            rows: order.indices.map { [.text(order[$0]), .text(stateTexts[$0]), .text(dues[$0]), .text(polls[$0])] })
        try await tx.dialect.run(
            [
                SQLBatchStatement(
                    over: states,
                    """
                    INSERT INTO announced (app_user_id, state_json, due_at, poll_at)
                    SELECT u, s, NULLIF(d, ''), NULLIF(p, '') FROM a WHERE true
                    ON CONFLICT (app_user_id) DO UPDATE SET state_json = excluded.state_json, due_at = excluded.due_at,
                        poll_at = excluded.poll_at
                    """)
            ] + outboxStatements(events, time: time), in: tx)
    }

    /// The statements that store announced events of customers (by their keys), each with a pending delivery to
    /// each of its project's endpoints that takes its type — nothing of a project without an endpoint.
    static func outboxStatements(_ events: [(user: String, event: OutboxEvent)], time: String)
        -> [SQLBatchStatement]
    {
        let batch = SQLRowSet(
            "e", columns: ["id", "project", "u", "t", "b"],
            rows: events.map { user, event in
                [
                    .text(event.id), .text(ProjectScope.id(ofKey: user)), .text(user), .text(event.type),
                    .text(event.body),
                ]
            })
        return [
            SQLBatchStatement(
                over: batch,
                """
                INSERT INTO webhook_events (id, project, app_user_id, type, created_at, body)
                SELECT e.id, e.project, e.u, e.t, ?, e.b FROM e
                WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project = e.project)
                """, [.text(time)]),
            SQLBatchStatement(
                over: batch,
                """
                INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at)
                SELECT e.id, w.id, 'pending', 0, ? FROM e
                    JOIN webhook_endpoints w ON w.project = e.project
                        AND (w.event_types = '' OR w.event_types LIKE '%,' || e.t || ',%')
                """, [.text(time)]),
        ]
    }

    /// Stores an announced event of a customer with a pending delivery to each of its project's endpoints that
    /// takes its type — nothing when the project has no endpoint.
    static func insertOutboxEvent(_ tx: any SQLTransaction, _ event: OutboxEvent, appUserKey: String, time: String)
        async throws
    {
        try await tx.dialect.run(outboxStatements([(appUserKey, event)], time: time), in: tx)
    }

    /// An alias merge: the merged subscriber keeps both announcements (the target's where both announced the
    /// same subscription), and the alias's events and their deliveries move with it.
    static func mergeAnnouncements(_ tx: any SQLTransaction, into target: String, from source: String) async throws {
        let rows = try await announcedRows(tx, users: [target, source])
        if let merged = rows[target]?.state ?? rows[source]?.state {
            let state = rows[source]?.state.map { merged.merging($0) } ?? merged
            try await tx.query(
                "INSERT INTO announced (app_user_id, state_json, due_at, poll_at) VALUES (?, ?, (SELECT min(due_at) FROM announced WHERE app_user_id IN (?, ?)), (SELECT min(poll_at) FROM announced WHERE app_user_id IN (?, ?))) ON CONFLICT (app_user_id) DO UPDATE SET state_json = excluded.state_json, due_at = excluded.due_at, poll_at = excluded.poll_at",
                [
                    .text(target), .text(String(decoding: try announcedEncoder.encode(state), as: UTF8.self)),
                    .text(target), .text(source), .text(target), .text(source),
                ])
        }
        try await tx.query("DELETE FROM announced WHERE app_user_id = ?", [.text(source)])
        try await tx.query(
            "UPDATE webhook_events SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
    }
}

/// Changes the clock makes: a subscriber whose announced answer may change at an instant now past (a period's
/// end, a grace period's end) is evaluated again with no new evidence, and what changed is announced with cause
/// ``EventCause/clock``.
extension SQLStore {
    /// Announces what the clock changed for up to `limit` subscribers whose due instant is `now` or earlier.
    ///
    /// Several processes may run this together: each takes a subscriber only under its user lock, tried without
    /// waiting (a subscriber being written or announced elsewhere is left to that transaction), and checks again
    /// under the lock that it is still due.
    /// - Returns: How many subscribers were looked at (`limit` when more may be due).
    public func announceDue(now: Date, limit: Int) async throws -> Int {
        guard let announcer else { return 0 }
        let time = Self.timestamp(now)
        return try await database.withTransaction { tx in
            let candidates = try await tx.query(
                "SELECT app_user_id FROM announced WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?",
                [.text(time), .integer(Int64(limit))]
            ).compactMap { $0["app_user_id"]?.string }
            guard !candidates.isEmpty else { return 0 }
            // Each candidate under its user lock, tried without waiting, and still due under it.
            let rows = try await tx.dialect.rows(
                SQLBatchStatement(
                    over: SQLRowSet("u", column: "id", texts: candidates),
                    """
                    SELECT a.app_user_id, s.bundle_id, s.evidence_json FROM u
                        JOIN announced a ON a.app_user_id = u.id AND a.due_at <= ?
                        LEFT JOIN subscribers s ON s.app_user_id = u.id
                    WHERE \(tx.dialect.tryLock("'user:' || u.id"))
                    """, [.text(time)]), in: tx)
            let announced = try await Self.announcedRows(tx, users: rows.compactMap { $0["app_user_id"]?.string })
            var planned: [PlannedAnnouncement] = []
            for row in rows {
                guard let user = row["app_user_id"]?.string else { continue }
                guard let json = row["evidence_json"]?.string else {
                    // Merged away: nothing is left to announce about this id.
                    try await tx.query("DELETE FROM announced WHERE app_user_id = ?", [.text(user)])
                    continue
                }
                let change = WritePlanner.change(
                    of: user, bundleID: row["bundle_id"]?.string ?? "", row: announced[user],
                    evidence: try evidenceCache.evidence(json, for: user), transferredIn: [], cause: .clock,
                    causeID: nil, now: now)
                planned.append(PlannedAnnouncement(user: user, announcement: try announcer.announce(change)))
            }
            try await Self.writeAnnouncements(tx, planned, now: now)
            return candidates.count
        }
    }
}
