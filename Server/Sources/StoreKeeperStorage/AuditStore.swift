/// The audit log: changes made with a secret key or through the dashboard, appended by the store itself inside the
/// change's transaction (``AuditTrail``), read a page at a time; nothing updates or deletes an entry.
public protocol AuditStore: Sendable {
    /// A page of `project`'s entries, oldest first, after the entry `after` (`nil`: from the first).
    /// - Parameters:
    ///   - project: The project.
    ///   - after: The id of the last entry already read.
    ///   - limit: The most entries to answer.
    func auditEntries(in project: ProjectScope, after: Int64?, limit: Int) async throws -> [AuditEntry]
}
