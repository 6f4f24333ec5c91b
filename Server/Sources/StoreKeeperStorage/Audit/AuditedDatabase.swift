import Synchronization

/// A database whose write transactions append the serving request's audit entry (``AuditTrail/current``): the
/// first one that commits carries it, inside the same transaction as the change. Reads and transactions outside
/// an audited request pass straight through.
struct AuditedDatabase: SQLDatabase {
    let base: any SQLDatabase

    var dialect: any SQLDialect { base.dialect }

    func withTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T {
        guard let trail = AuditTrail.current, !trail.isCommitted else { return try await base.withTransaction(body) }
        let outcome = try await base.withTransaction { tx in
            let watched = WatchedTransaction(base: tx)
            let result = try await body(watched)
            // Only a transaction that changed something carries the entry. (A retried attempt appends again: the
            // failed one's row rolled back with it.)
            let wrote = watched.wrote.withLock { $0 }
            if wrote { try await Self.append(trail.entry, in: tx) }
            return (result, wrote)
        }
        if outcome.1 { trail.markCommitted() }
        return outcome.0
    }

    func withReadTransaction<T: Sendable>(_ body: @Sendable (any SQLTransaction) async throws -> T) async throws -> T {
        try await base.withReadTransaction(body)
    }

    func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] { try await base.read(sql, binds) }

    func close() async throws { try await base.close() }

    /// Appends `entry` to the audit log.
    static func append(_ entry: AuditEntry, in tx: any SQLTransaction) async throws {
        try await tx.query(
            "INSERT INTO audit_log (project, at, actor, address, route, target, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(entry.project), .text(SQLStore.timestamp(entry.at)), .text(entry.actor),
                entry.address.map(SQLValue.text) ?? .null, .text(entry.route), entry.target.map(SQLValue.text) ?? .null,
                .text(entry.summary),
            ])
    }
}

/// A transaction that notes whether a statement changed something: any statement but a `SELECT`, except one with
/// `RETURNING` that returned no row (a delete that found nothing).
final class WatchedTransaction: SQLTransaction {
    let base: any SQLTransaction
    let wrote = Mutex(false)

    init(base: any SQLTransaction) { self.base = base }

    var dialect: any SQLDialect { base.dialect }

    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let rows = try await base.query(sql, binds)
        let statement = sql.drop { $0 == " " || $0 == "\n" }.prefix(6).uppercased()
        if statement != "SELECT", rows.count > 0 || !sql.uppercased().contains("RETURNING") {
            wrote.withLock { $0 = true }
        }
        return rows
    }
}
