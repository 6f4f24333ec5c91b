/// The audit log on SQL: appended by ``AuditedDatabase``, read here.
public struct SQLAuditStore: AuditStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// A page of `project`'s entries, oldest first (see ``AuditStore/auditEntries(in:after:limit:)``).
    public func auditEntries(in project: ProjectScope, after: Int64?, limit: Int) async throws -> [AuditEntry] {
        let rows = try await database.read(
            "SELECT id, project, at, actor, address, route, target, summary FROM audit_log WHERE project = ? AND id > ? ORDER BY id LIMIT ?",
            [.text(project.id), .integer(after ?? 0), .integer(Int64(max(1, min(limit, 1000))))])
        return rows.map { row in
            AuditEntry(
                id: row["id"]?.int ?? 0, project: row["project"]?.string ?? "", at: SQLStore.date(row["at"]),
                actor: row["actor"]?.string ?? "", address: row["address"]?.string, route: row["route"]?.string ?? "",
                target: row["target"]?.string, summary: row["summary"]?.string ?? "")
        }
    }
}
