public import Foundation

/// Subscriber attributes on SQL: one row per canonical customer key and name.
extension SQLStore {
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
    public func attributes(appUserKey: String) async throws -> (customerKey: String, attributes: [String: String]) {
        let rows = try await database.read(
            "SELECT c.customer, a.name, a.value FROM (SELECT COALESCE((SELECT app_user_id FROM aliases WHERE alias = ?), ?) AS customer) c LEFT JOIN subscriber_attributes a ON a.app_user_id = c.customer",
            [.text(appUserKey), .text(appUserKey)])
        var attributes: [String: String] = [:]
        for row in rows {
            if let name = row["name"]?.string, let value = row["value"]?.string { attributes[name] = value }
        }
        return (rows.first?["customer"]?.string ?? appUserKey, attributes)
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
                            .text(customer), .text(name), .text(value), .text(Self.timestamp(now)),
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
    public func holders(of name: String, value: String, among customerKeys: [String]) async throws -> Set<String> {
        guard !customerKeys.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: customerKeys.count).joined(separator: ", ")
        return Set(
            try await database.read(
                "SELECT app_user_id FROM subscriber_attributes WHERE name = ? AND value = ? AND app_user_id IN (\(marks))",
                [.text(name), .text(value)] + customerKeys.map(SQLValue.text)
            ).compactMap { $0["app_user_id"]?.string })
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
