/// Customer search on SQL: exact matches by primary key or index, prefixes by a filter that is byte-exact on both
/// databases (see ``ProjectKeyFilter``: SQLite's `LIKE` folds ASCII case, so `LIKE` only narrows and `substr`
/// decides).
public struct SQLSearchStore: SearchStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// The customers `text` names (see ``SearchStore/searchCustomers(_:in:limit:)``).
    public func searchCustomers(_ text: String, in project: ProjectScope, limit: Int) async throws -> [CustomerMatch] {
        let key = project.key(text)
        let projectFilter = ProjectKeyFilter(column: "app_user_id", project: project)
        // `LIKE` narrows (and may use an index); `substr` decides, byte-exact on both databases.
        let pattern =
            key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        func startsWith(_ column: String) -> String {
            "\(column) LIKE ? ESCAPE '\\' AND substr(\(column), 1, length(?)) = ?"
        }
        let count = max(0, min(limit, 100))
        let lookups: [(CustomerMatch.Field, String, [SQLValue])] = [
            (
                .appUserID,
                "SELECT app_user_id FROM subscribers WHERE app_user_id = ? UNION SELECT app_user_id FROM subscriber_attributes WHERE app_user_id = ?",
                [.text(key), .text(key)]
            ),
            (.alias, "SELECT app_user_id FROM aliases WHERE alias = ?", [.text(key)]),
            (
                .originalTransactionID, "SELECT app_user_id FROM ownership WHERE original_transaction_id = ?",
                [.text(key)]
            ),
            (
                .email,
                "SELECT app_user_id FROM subscriber_attributes WHERE name = ? AND value = ? AND \(projectFilter.sql) ORDER BY app_user_id LIMIT \(count)",
                [.text("$email"), .text(text)] + projectFilter.binds
            ),
            (
                .appUserID,
                "SELECT app_user_id FROM subscribers WHERE \(startsWith("app_user_id")) ORDER BY app_user_id LIMIT \(count)",
                [.text(pattern), .text(key), .text(key)]
            ),
            (
                .alias,
                "SELECT app_user_id FROM aliases WHERE \(startsWith("alias")) ORDER BY alias LIMIT \(count)",
                [.text(pattern), .text(key), .text(key)]
            ),
        ]
        var found: [CustomerMatch] = []
        var seen: Set<String> = []
        for (field, sql, binds) in lookups where found.count < count {
            for row in try await database.read(sql, binds) {
                guard let stored = row["app_user_id"]?.string, found.count < count, seen.insert(stored).inserted
                else { continue }
                found.append(CustomerMatch(appUserID: ProjectScope.value(ofKey: stored), field: field))
            }
        }
        return found
    }
}
