public import Foundation

/// Subscriber attributes on SQL: one row per canonical customer key and name; a write publishes its customer's
/// change with the subscribers' (``changes``).
public struct SQLAttributeStore: AttributeStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase
    /// Where a customer's change is published (the subscribers' feed: an attribute is part of its document).
    let changes: SubscriberChanges

    /// The stored key of the customer `key` names: itself, or the customer it is an alias of.
    static func customerKey(_ tx: any SQLTransaction, _ key: String) async throws -> String {
        try await tx.query("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(key)]).first?["app_user_id"]?
            .string ?? key
    }

    static func attributes(_ tx: any SQLTransaction, _ customer: String) async throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try await tx.query(
            "SELECT name, value FROM subscriber_attributes WHERE app_user_id = ?", [.text(customer)])
        {
            if let name = row["name"]?.string, let value = row["value"]?.string { result[name] = value }
        }
        return result
    }

    /// The attributes of the customer `appUserKey` names: one statement, the alias resolved inside it.
    public func attributes(appUserKey: String) async throws -> (customerKey: String, attributes: HeldAttributes) {
        let rows = try await database.read(
            "SELECT c.customer, a.name, a.value, a.source FROM (SELECT COALESCE((SELECT app_user_id FROM aliases WHERE alias = ?), ?) AS customer) c LEFT JOIN subscriber_attributes a ON a.app_user_id = c.customer",
            [.text(appUserKey), .text(appUserKey)])
        var held = HeldAttributes()
        for row in rows {
            guard let name = row["name"]?.string, let value = row["value"]?.string else { continue }
            held.values[name] = value
            if row["source"]?.string == AttributeSource.server.rawValue { held.serverSet.insert(name) }
        }
        return (rows.first?["customer"]?.string ?? appUserKey, held)
    }

    /// What a subscriber row holds when it holds no evidence (a row an alias of two ids without evidence made):
    /// such a customer is a guest like one without a row.
    public static let emptyEvidenceJSON = #"{"renewals":[],"transactions":[]}"#

    /// Whether the customer has neither evidence (a subscriber row holding some) nor an attribute the app set: one
    /// statement.
    public func isNewGuest(appUserKey: String) async throws -> Bool {
        let rows = try await database.read(
            "SELECT (SELECT count(*) FROM subscribers WHERE app_user_id = c.customer AND evidence_json <> ?) + (SELECT count(*) FROM subscriber_attributes WHERE app_user_id = c.customer AND source = 'client') AS n FROM (SELECT COALESCE((SELECT app_user_id FROM aliases WHERE alias = ?), ?) AS customer) c",
            [.text(Self.emptyEvidenceJSON), .text(appUserKey), .text(appUserKey)])
        return (rows.first?["n"]?.int ?? 0) == 0
    }

    /// Customers of `project` holding an app-set attribute or an experiment enrolment and no evidence (no
    /// subscriber row, or one without evidence), up to `limit`.
    public func guests(in project: ProjectScope, limit: Int) async throws -> Int {
        let filter = ProjectKeyFilter(column: "a.app_user_id", project: project)
        let rows = try await database.read(
            "SELECT count(*) AS n FROM (SELECT g.customer FROM (SELECT a.app_user_id AS customer FROM subscriber_attributes a WHERE \(filter.sql) AND a.source = 'client' UNION SELECT e.app_user_id AS customer FROM experiment_enrolments e WHERE e.project = ?) g WHERE NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.app_user_id = g.customer AND s.evidence_json <> ?) LIMIT \(max(0, limit))) x",
            filter.binds + [.text(project.id), .text(Self.emptyEvidenceJSON)])
        return Int(rows.first?["n"]?.int ?? 0)
    }

    /// Sets or removes attributes in one transaction, within the limit of custom ones.
    public func setAttributes(
        _ changes: [String: String?], appUserKey: String, maximumCustom: Int, now: Date, source: AttributeSource
    ) async throws -> [String: String] {
        let (customer, result) = try await database.withTransaction { tx in
            let customer = try await Self.customerKey(tx, appUserKey)
            if source == .client {
                let protected = try await tx.query(
                    "SELECT name FROM subscriber_attributes WHERE app_user_id = ? AND source = 'server'",
                    [.text(customer)]
                ).compactMap { $0["name"]?.string }.filter { changes.keys.contains($0) }.sorted()
                if !protected.isEmpty { throw AttributeSetByServer(names: protected) }
            }
            for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
                if let value {
                    try await tx.query(
                        "INSERT INTO subscriber_attributes (app_user_id, name, value, updated_at, source) VALUES (?, ?, ?, ?, ?) ON CONFLICT (app_user_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, source = excluded.source",
                        [
                            .text(customer), .text(name), .text(value), .text(SQLStore.timestamp(now)),
                            .text(source.rawValue),
                        ])
                } else {
                    try await tx.query(
                        "DELETE FROM subscriber_attributes WHERE app_user_id = ? AND name = ?",
                        [.text(customer), .text(name)])
                }
            }
            let result = try await Self.attributes(tx, customer)
            let custom = result.keys.filter { !$0.hasPrefix("$") }.count
            if custom > maximumCustom { throw AttributeLimitExceeded(count: custom, maximum: maximumCustom) }
            return (customer, result)
        }
        if !changes.isEmpty { self.changes.publish(.changed(Array(Set([customer, appUserKey])).sorted())) }
        return result
    }

    /// Which of `customerKeys` hold attribute `name` with exactly `value`.
    public func holders(of name: String, value: String, among customerKeys: [String], source: AttributeSource?)
        async throws -> [String: AttributeSource]
    {
        guard !customerKeys.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: customerKeys.count).joined(separator: ", ")
        let bySource = source == nil ? "" : " AND source = ?"
        let rows = try await database.read(
            "SELECT app_user_id, source FROM subscriber_attributes WHERE name = ? AND value = ?\(bySource) AND app_user_id IN (\(marks))",
            [.text(name), .text(value)] + (source.map { [SQLValue.text($0.rawValue)] } ?? [])
                + customerKeys.map(SQLValue.text))
        var holders: [String: AttributeSource] = [:]
        for row in rows {
            guard let key = row["app_user_id"]?.string else { continue }
            holders[key] = AttributeSource(rawValue: row["source"]?.string ?? "") ?? .client
        }
        return holders
    }

    /// Removes the attributes of the customer `appUserKey` names (only the app's with `keepingServerSet`).
    public func deleteAttributes(appUserKey: String, keepingServerSet: Bool) async throws -> Int {
        let (customer, removed) = try await database.withTransaction { tx in
            let customer = try await Self.customerKey(tx, appUserKey)
            let removed = try await tx.query(
                keepingServerSet
                    ? "DELETE FROM subscriber_attributes WHERE app_user_id = ? AND source = 'client' RETURNING name"
                    : "DELETE FROM subscriber_attributes WHERE app_user_id = ? RETURNING name",
                [.text(customer)])
            return (customer, removed.count)
        }
        if removed > 0 { changes.publish(.changed(Array(Set([customer, appUserKey])).sorted())) }
        return removed
    }

    /// Moves the attributes of `source` to `target` inside a merge (`target`'s own values win).
    static func mergeAttributes(_ tx: any SQLTransaction, into target: String, from source: String) async throws {
        try await tx.query(
            "INSERT INTO subscriber_attributes (app_user_id, name, value, updated_at, source) SELECT ?, name, value, updated_at, source FROM subscriber_attributes WHERE app_user_id = ? ON CONFLICT (app_user_id, name) DO NOTHING",
            [.text(target), .text(source)])
        try await tx.query("DELETE FROM subscriber_attributes WHERE app_user_id = ?", [.text(source)])
    }
}
