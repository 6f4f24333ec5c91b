import Foundation

/// A customer's data on SQL: read for a data access request, erased on request.
extension SQLStore {
    /// The raw evidence of a customer (see ``CustomerDataStore/customerEvidence(_:in:)``).
    public func customerEvidence(_ appUserID: String, in project: ProjectScope) async throws -> [RawEvidenceRecord] {
        try await database.withReadTransaction { tx in
            let user = try await Self.canonical(tx, project.key(appUserID))
            let keys = try await Self.keys(of: user, tx)
            let rows = try await tx.query(
                "SELECT DISTINCT v.id, v.kind, v.received_at, v.body, v.form FROM evidence v JOIN events e ON e.evidence_id = v.id WHERE e.app_user_id IN (\(Self.placeholders(keys.count))) ORDER BY v.id",
                keys.map(SQLValue.text))
            var records: [RawEvidenceRecord] = []
            for row in rows {
                let id = row["id"]?.int ?? 0
                records.append(
                    RawEvidenceRecord(
                        id: id, kind: row["kind"]?.string ?? "", receivedAt: Self.date(row["received_at"]),
                        body: try await Self.rawText(
                            tx, body: row["body"]?.string ?? "", form: row["form"]?.string, id: id)))
            }
            return records
        }
    }

    /// Erases a customer (see ``CustomerDataStore/eraseCustomer(_:in:)``).
    public func eraseCustomer(_ appUserID: String, in project: ProjectScope) async throws -> ErasureRecord? {
        let erased: (ErasureRecord, [String])? = try await database.withTransaction { tx in
            let user = try await Self.canonical(tx, project.key(appUserID))
            try await Self.lock(tx, ["user:\(user)"])
            let keys = try await Self.keys(of: user, tx)
            let binds = keys.map(SQLValue.text)
            let list = Self.placeholders(keys.count)
            let known = try await tx.query(
                "SELECT (SELECT count(*) FROM subscribers WHERE app_user_id = ?) + (SELECT count(*) FROM events WHERE app_user_id IN (\(list))) + (SELECT count(*) FROM subscriber_attributes WHERE app_user_id IN (\(list))) AS n",
                [.text(user)] + binds + binds)
            guard (known.first?["n"]?.int ?? 0) > 0 else { return nil }
            let originals = try await tx.query(
                "SELECT original_transaction_id FROM ownership WHERE app_user_id = ?", [.text(user)]
            ).compactMap { $0["original_transaction_id"]?.string }
            // Apple's notifications about these subscriptions, and the raw evidence of them and of the events.
            var notifications: [String] = []
            for original in originals {
                // LIKE narrows the rows; the exact list decides (an id's `_` or `%` would match other ids).
                notifications += try await tx.query(
                    "SELECT notification_id, original_transaction_ids FROM notifications WHERE original_transaction_ids = ? OR original_transaction_ids LIKE ? OR original_transaction_ids LIKE ? OR original_transaction_ids LIKE ?",
                    [.text(original), .text(original + ",%"), .text("%," + original), .text("%," + original + ",%")]
                ).filter {
                    ($0["original_transaction_ids"]?.string ?? "").split(separator: ",").contains { $0 == original }
                }.compactMap { $0["notification_id"]?.string }
            }
            var evidence = Set(
                try await tx.query(
                    "SELECT DISTINCT evidence_id FROM events WHERE app_user_id IN (\(list)) AND evidence_id IS NOT NULL",
                    binds
                ).compactMap { $0["evidence_id"]?.int })
            for chunk in Self.chunks(notifications) {
                evidence.formUnion(
                    try await tx.query(
                        "SELECT evidence_id FROM notifications WHERE notification_id IN (\(Self.placeholders(chunk.count))) AND evidence_id IS NOT NULL",
                        chunk.map(SQLValue.text)
                    ).compactMap { $0["evidence_id"]?.int })
            }
            var rows = 0
            func delete(_ sql: String, _ values: [SQLValue]) async throws {
                rows += try await tx.query(sql + " RETURNING 1", values).count
            }
            for chunk in Self.chunks(notifications) {
                try await delete(
                    "DELETE FROM notifications WHERE notification_id IN (\(Self.placeholders(chunk.count)))",
                    chunk.map(SQLValue.text))
            }
            try await delete(
                "DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events WHERE app_user_id IN (\(list)))",
                binds)
            for table in [
                "events", "webhook_events", "announced", "evidence_history", "subscriber_attributes",
                "metric_customers", "experiment_enrolments", "experiment_outcomes",
            ] {
                try await delete("DELETE FROM \(table) WHERE app_user_id IN (\(list))", binds)
            }
            // Raw evidence nobody else's event or notification still points to.
            for chunk in Self.chunks(evidence.sorted().map(SQLValue.integer)) {
                try await delete(
                    "DELETE FROM evidence WHERE id IN (\(Self.placeholders(chunk.count))) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.evidence_id = evidence.id) AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.evidence_id = evidence.id)",
                    chunk)
            }
            if !originals.isEmpty {
                let raw = originals.map(ProjectScope.value(ofKey:))
                for chunk in Self.chunks((originals + raw).map(SQLValue.text)) {
                    try await delete(
                        "DELETE FROM retention_answers WHERE project = ? AND original_transaction_id IN (\(Self.placeholders(chunk.count)))",
                        [.text(project.id)] + chunk)
                }
            }
            try await delete("DELETE FROM ownership WHERE app_user_id = ?", [.text(user)])
            try await delete("DELETE FROM aliases WHERE app_user_id = ?", [.text(user)])
            try await delete("DELETE FROM subscribers WHERE app_user_id = ?", [.text(user)])
            let aliases = keys.filter { $0 != user }.map(ProjectScope.value(ofKey:)).sorted()
            return (
                ErasureRecord(
                    appUserID: ProjectScope.value(ofKey: user), aliases: aliases, subscriptions: originals.count,
                    rows: rows), keys
            )
        }
        guard let erased else { return nil }
        changes.publish(.changed(erased.1.sorted()))
        return erased.0
    }

    /// A customer's stored key and its aliases' keys.
    static func keys(of user: String, _ tx: any SQLTransaction) async throws -> [String] {
        [user]
            + (try await tx.query("SELECT alias FROM aliases WHERE app_user_id = ? ORDER BY alias", [.text(user)])
                .compactMap { $0["alias"]?.string })
    }

    /// `?, ?, …` for `count` values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
    }
}
