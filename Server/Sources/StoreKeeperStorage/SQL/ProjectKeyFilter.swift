/// The one condition that keeps a statement to one project's stored keys (`project:…`), exactly, on every database.
///
/// `LIKE 'project:%'` alone is not a tenant boundary: SQLite's `LIKE` folds ASCII case, so project `alpha` would
/// read project `Alpha`'s rows. The filter therefore compares the key's first characters with the project's prefix
/// by equality (byte-exact on both databases; a project id is ASCII, so characters and bytes agree), and keeps the
/// escaped `LIKE` beside it only so a database that can use an index for a prefix `LIKE` still does.
struct ProjectKeyFilter: Sendable {
    /// The condition, with two placeholders (the prefix's length is a number written into the text, since
    /// PostgreSQL's `substr` takes no `bigint` bind).
    let sql: String
    /// The values of its placeholders, in order.
    let binds: [SQLValue]

    /// The filter of `project`'s keys in `column`.
    /// - Parameters:
    ///   - column: The column holding stored keys (`app_user_id`, `s.app_user_id`).
    ///   - project: The project.
    init(column: String, project: ProjectScope) {
        let prefix = project.key("")
        // A project id's only LIKE wildcard is `_` (its characters are A–Z a–z 0–9 . _ -).
        let pattern = prefix.replacingOccurrences(of: "_", with: "\\_") + "%"
        sql = "\(column) LIKE ? ESCAPE '\\' AND substr(\(column), 1, \(prefix.utf8.count)) = ?"
        binds = [.text(pattern), .text(prefix)]
    }
}
