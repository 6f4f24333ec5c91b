import Foundation
public import SubscriptionEngine

/// Reads: a subscriber's row, its decoded evidence, its events, and a dump of every table.
extension SQLStore {
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
            "(SELECT \(database.dialect.jsonArray(of: "alias")) FROM aliases WHERE app_user_id = s.app_user_id)"
        guard
            let row = try await database.read(
                "SELECT s.app_user_id, s.bundle_id, s.evidence_json, s.created_at, \(aliases) AS aliases_json FROM subscribers s WHERE s.app_user_id = COALESCE((SELECT app_user_id FROM aliases WHERE alias = ?), ?)",
                [.text(key), .text(key)]
            ).first,
            let user = row["app_user_id"]?.string, let json = row["evidence_json"]?.string
        else { return nil }
        let aliasList = try Self.decodeStored(
            [String].self, row["aliases_json"], empty: "[]", what: "aliases of \(user)")
        return SubscriberSnapshot(
            storageKey: user, appUserID: ProjectScope.value(ofKey: user), bundleID: row["bundle_id"]?.string ?? "",
            evidenceJSON: json,
            aliases: aliasList.map(ProjectScope.value(ofKey:)).sorted(), createdAt: Self.date(row["created_at"]))
    }

    /// The base64 app receipt last stored for a subscriber (see ``Store/latestReceipt(appUserKey:)``).
    public func latestReceipt(appUserKey: String) async throws -> String? {
        try await database.withReadTransaction { tx in
            guard
                let row = try await tx.query(
                    "SELECT evidence.id, evidence.body, evidence.form FROM events JOIN evidence ON evidence.id = events.evidence_id WHERE events.app_user_id = ? AND evidence.kind = 'receipt' ORDER BY events.id DESC LIMIT 1",
                    [.text(appUserKey)]
                ).first, let body = row["body"]?.string
            else { return nil }
            return try await Self.rawText(tx, body: body, form: row["form"]?.string, id: row["id"]?.int ?? 0)
        }
    }

    /// A subscriber's events in one project, oldest first.
    public func events(_ appUserID: String, in project: ProjectScope, limit: Int) async throws -> [EventRecord] {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, project.key(appUserID))
            return try await tx.query(
                "SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json FROM events WHERE app_user_id = ? ORDER BY id LIMIT ?",
                [.text(user), .integer(Int64(limit))]
            ).map(Self.eventRecord)
        }
    }

    /// A subscriber's events of `type` in one project, oldest first.
    public func events(_ appUserID: String, in project: ProjectScope, type: String) async throws -> [EventRecord] {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, project.key(appUserID))
            return try await tx.query(
                "SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json FROM events WHERE app_user_id = ? AND type = ? ORDER BY id",
                [.text(user), .text(type)]
            ).map(Self.eventRecord)
        }
    }

    /// An event row (`id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json`) as a record.
    static func eventRecord(_ row: SQLRow) throws -> EventRecord {
        EventRecord(
            id: row["id"]?.int ?? 0, appUserID: ProjectScope.value(ofKey: row["app_user_id"]?.string ?? ""),
            createdAt: Self.date(row["created_at"]),
            type: row["type"]?.string ?? "", cause: EventCause(rawValue: row["cause"]?.string ?? "") ?? .client,
            causeID: row["cause_id"]?.string, evidenceID: row["evidence_id"]?.int,
            detail: try Self.decodeStored(
                [String: EventValue].self, row["detail_json"], empty: "{}",
                what: "event \(row["id"]?.int ?? 0)'s detail"))
    }

    /// Every table in a stable order, the same on every backend for the same writes: row ids (which
    /// PostgreSQL's sequences skip on a conflict) are replaced by each row's position, and stored evidence is
    /// written with its observations sorted (its stored array order depends on how it was written).
    public func dump() async throws -> String {
        try await database.withReadTransaction { tx in
            var lines: [String] = []
            var evidencePositions: [Int64: Int] = [:]
            let tables: [(String, String, String)] = [
                ("subscribers", "app_user_id, bundle_id, evidence_json", "app_user_id"),
                ("aliases", "alias, app_user_id", "alias"),
                ("ownership", "original_transaction_id, app_user_id, bundle_id", "original_transaction_id"),
                ("evidence", "id, digest, bundle_id, kind, body, form", "id"),
                ("evidence_parts", "digest, body", "digest"),
                (
                    "notifications", "notification_id, type, status, original_transaction_ids, pending_json",
                    "notification_id"
                ),
                ("events", "id, app_user_id, type, cause, cause_id, evidence_id, detail_json", "id"),
                ("api_keys", "key_hash, kind, bundle_id, scope", "key_hash"),
                ("announced", "app_user_id, state_json, due_at, poll_at", "app_user_id"),
                ("evidence_history", "app_user_id, evidence_json", "app_user_id, digest"),
                ("webhook_events", "project, app_user_id, type", "app_user_id, created_at, type"),
                ("webhook_endpoints", "id AS endpoint, project, url, event_types", "id"),
                ("project_settings", "project, kind, name, body", "project, kind, name"),
                ("subscriber_attributes", "app_user_id, name, value", "app_user_id, name"),
                ("mass_extensions", "project, bundle_id, product_id, days, reason, storefronts", "project, id"),
                (
                    "experiment_enrolments", "project, experiment, app_user_id, variant",
                    "project, experiment, app_user_id"
                ),
                (
                    "(SELECT d.event_id, d.endpoint_id, d.status, d.attempts, e.project FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id) AS webhook_deliveries",
                    "event_id, endpoint_id, status, attempts, project", "event_id, endpoint_id"
                ),
            ]
            for (table, columns, order) in tables {
                lines.append("# \(table.components(separatedBy: " AS ").last ?? table)")
                for (position, row) in try await tx.query("SELECT \(columns) FROM \(table) ORDER BY \(order)", [])
                    .enumerated()
                {
                    var fields: [String: String] = [:]
                    for (column, value) in row { fields[column] = String(describing: value) }
                    if table == "evidence", let id = row["id"]?.int { evidencePositions[id] = position + 1 }
                    if row["id"] != nil { fields["id"] = "#\(position + 1)" }
                    if let id = row["evidence_id"]?.int { fields["evidence_id"] = "#\(evidencePositions[id] ?? 0)" }
                    for column in ["evidence_json", "pending_json"] {
                        // (JSON that is not evidence is shown as stored.)
                        if let json = row[column]?.string, let sorted = try? Self.sortedEvidence(json) {
                            fields[column] = sorted
                        }
                    }
                    lines.append(fields.keys.sorted().map { "\($0)=\(fields[$0] ?? "")" }.joined(separator: " | "))
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A JSON column as `type` (`empty` when NULL).
    /// - Throws: ``StorageError`` naming `what` when the stored JSON does not decode: stored data is never silently
    ///   read as empty.
    /// The original transaction ids naming an app transaction, by owning subscriber (see
    /// ``Store/originals(appTransactionID:in:)``). An id outside Apple's digits-and-letters form names nothing.
    public func originals(appTransactionID: String, in project: ProjectScope) async throws -> [String: [String]] {
        guard !appTransactionID.isEmpty, appTransactionID.utf8.count <= 64,
            appTransactionID.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D
            })
        else { return [:] }
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        let rows = try await database.read(
            "SELECT app_user_id, evidence_json FROM subscribers WHERE \(keys.sql) AND evidence_json LIKE ?",
            keys.binds + [.text("%\"appTransactionID\":\"\(appTransactionID)\"%")])
        var result: [String: [String]] = [:]
        for row in rows {
            guard let user = row["app_user_id"]?.string else { continue }
            let evidence = try Self.decodeStored(
                EvidenceSet.self, row["evidence_json"], empty: "{}", what: "evidence of \(user)")
            let originals = Set(
                evidence.transactions.filter { $0.appTransactionID == appTransactionID }.map(\.originalTransactionID))
            if !originals.isEmpty { result[user] = originals.sorted() }
        }
        return result
    }

    /// One page of a project's subscribers' evidence (see ``Store/evidencePage(in:after:limit:)``).
    public func evidencePage(in project: ProjectScope, after: String?, limit: Int) async throws -> [(
        storageKey: String, evidence: EvidenceSet
    )] {
        let (sql, binds) = evidencePageStatement(in: project, after: after, limit: limit)
        return try Self.evidence(of: try await database.read(sql, binds))
    }

    /// The statement of ``evidencePage(in:after:limit:)``: each subscriber's evidence with its history (a JSON array
    /// of single-observation sets), in key order after `after`.
    func evidencePageStatement(in project: ProjectScope, after: String?, limit: Int) -> (String, [SQLValue]) {
        let concatenate = database.dialect.joined("evidence_json", separator: ",")
        let keys = ProjectKeyFilter(column: "s.app_user_id", project: project)
        return (
            "SELECT s.app_user_id, s.evidence_json, (SELECT '[' || \(concatenate) || ']' FROM evidence_history h WHERE h.app_user_id = s.app_user_id) AS history_json FROM subscribers s WHERE \(keys.sql) AND s.app_user_id > ? ORDER BY s.app_user_id LIMIT ?",
            keys.binds + [.text(after ?? ""), .integer(Int64(max(1, limit)))]
        )
    }

    /// Each row's subscriber and its whole evidence (row and history), decoded directly: a scan of the whole
    /// project must not evict the cache's hot subscribers.
    static func evidence(of rows: [SQLRow]) throws -> [(storageKey: String, evidence: EvidenceSet)] {
        try rows.compactMap { row in
            guard let user = row["app_user_id"]?.string else { return nil }
            var evidence = try Self.decodeStored(
                EvidenceSet.self, row["evidence_json"], empty: "{}", what: "evidence of \(user)")
            for past in try Self.decodeStored(
                [EvidenceSet].self, row["history_json"], empty: "[]", what: "history of \(user)")
            {
                evidence.formUnion(past)
            }
            return (user, evidence)
        }
    }

    /// The newest notifications of some apps (see ``Store/recentNotifications(bundleIDs:limit:)``).
    public func recentNotifications(bundleIDs: [String], limit: Int) async throws -> [NotificationRecord] {
        guard !bundleIDs.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: bundleIDs.count).joined(separator: ", ")
        let rows = try await database.read(
            "SELECT notification_id, bundle_id, type, status, received_at, original_transaction_ids FROM notifications WHERE bundle_id IN (\(placeholders)) ORDER BY received_at DESC, notification_id LIMIT ?",
            bundleIDs.map(SQLValue.text) + [.integer(Int64(max(1, limit)))])
        return rows.map { row in
            NotificationRecord(
                notificationID: row["notification_id"]?.string ?? "", bundleID: row["bundle_id"]?.string ?? "",
                type: row["type"]?.string ?? "", status: row["status"]?.string ?? "",
                receivedAt: Self.date(row["received_at"]),
                originalTransactionIDs: (row["original_transaction_ids"]?.string ?? "").split(separator: ",").map {
                    ProjectScope.value(ofKey: String($0))
                })
        }
    }

    static func decodeStored<Value: Decodable>(_ type: Value.Type, _ value: SQLValue?, empty: String, what: String)
        throws -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: Data((value?.string ?? empty).utf8))
        } catch {
            throw StorageError("the stored \(what) cannot be read: \(error)")
        }
    }

    /// Stored evidence JSON with its observations' JSON sorted, for ``dump()``.
    static func sortedEvidence(_ json: String) throws -> String {
        let evidence = try JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
        let encoder = EvidenceEncoder.elementEncoder
        let renewals = try evidence.renewals.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.sorted()
        let transactions = try evidence.transactions.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            .sorted()
        let consents = try (evidence.consentRescissions ?? []).map {
            String(decoding: try encoder.encode($0), as: UTF8.self)
        }.sorted()
        let grants = try (evidence.grants ?? []).map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            .sorted()
        let revocations = try (evidence.grantRevocations ?? []).map {
            String(decoding: try encoder.encode($0), as: UTF8.self)
        }.sorted()
        return "renewals=[\(renewals.joined(separator: ","))] transactions=[\(transactions.joined(separator: ","))]"
            + (consents.isEmpty ? "" : " consents=[\(consents.joined(separator: ","))]")
            + (grants.isEmpty ? "" : " grants=[\(grants.joined(separator: ","))]")
            + (revocations.isEmpty ? "" : " grant_revocations=[\(revocations.joined(separator: ","))]")
    }

    /// The customer key owning the subscription of `originalTransactionKey` among `bundleIDs`.
    public func owner(originalTransactionKey: String, bundleIDs: [String]) async throws -> String? {
        guard !bundleIDs.isEmpty else { return nil }
        let marks = Array(repeating: "?", count: bundleIDs.count).joined(separator: ", ")
        return try await database.read(
            "SELECT app_user_id FROM ownership WHERE original_transaction_id = ? AND bundle_id IN (\(marks))",
            [.text(originalTransactionKey)] + bundleIDs.map(SQLValue.text)
        ).first?["app_user_id"]?.string
    }
}
