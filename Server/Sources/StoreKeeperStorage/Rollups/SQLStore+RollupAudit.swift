import Foundation
import SubscriptionMetrics

extension SQLStore {
    /// Checks a sample of `project`'s customers against their evidence: up to `limit` of them, those after `after`
    /// in key order, then from the first (a window of the key order starting anywhere). Each customer's evidence and
    /// what the rollups counted of it are read in one snapshot, so a write beside the audit is never taken for a
    /// difference. Changes nothing.
    /// - Parameters:
    ///   - project: The project.
    ///   - after: Where the window starts: an app user id (need not exist); `nil` for after a customer drawn at
    ///     random (whatever the ids look like, every customer can be drawn).
    ///   - limit: How many customers at most.
    /// - Returns: How many were checked, and the app user ids of those whose counted contribution differs.
    /// - Throws: ``StorageError`` when this store keeps no rollups.
    public func auditRollups(in project: ProjectScope, after: String?, limit: Int) async throws -> RollupAudit {
        guard let rules = rollupRules else { throw StorageError("metric rollups are not kept by this store") }
        let limit = max(1, limit)
        var start = after.map(project.key)
        if start == nil { start = try await randomCustomer(in: project) }
        let first = evidencePageStatement(in: project, after: start, limit: limit)
        let found = try await database.withReadTransaction { tx in
            var rows = try await tx.query(first.0, first.1)
            if rows.count < limit {
                // Wrapped around to the first customers, short of the window's own.
                let wrapped = self.evidencePageStatement(in: project, after: nil, limit: limit - rows.count)
                let taken = Set(rows.compactMap { $0["app_user_id"]?.string })
                rows += try await tx.query(wrapped.0, wrapped.1).filter {
                    !taken.contains($0["app_user_id"]?.string ?? "")
                }
            }
            let page = try Self.evidence(of: rows)
            return (page: page, counted: try await Self.rollupCustomers(tx, page.map(\.storageKey)))
        }
        var audit = RollupAudit(checked: 0, differing: [])
        for (user, evidence) in found.page {
            audit.checked += 1
            if Self.checked(evidence, counted: found.counted[user], rules: rules).difference != nil {
                audit.differing.append(ProjectScope.value(ofKey: user))
            }
        }
        return audit
    }
}

extension SQLStore {
    /// The storage key of one of `project`'s customers drawn at random (`nil` without any): counted, then read at a
    /// random offset of the key order (an index scan, every few hours).
    func randomCustomer(in project: ProjectScope) async throws -> String? {
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        let count =
            try await database.read(
                "SELECT count(*) AS n FROM subscribers WHERE \(keys.sql)", keys.binds
            ).first?["n"]?.int ?? 0
        guard count > 0 else { return nil }
        return try await database.read(
            "SELECT app_user_id FROM subscribers WHERE \(keys.sql) ORDER BY app_user_id LIMIT 1 OFFSET ?",
            keys.binds + [.integer(Int64.random(in: 0..<count))]
        ).first?["app_user_id"]?.string
    }
}

/// What ``SQLStore/auditRollups(in:after:limit:)`` found.
public struct RollupAudit: Sendable, Hashable {
    /// Customers checked.
    public var checked: Int
    /// The app user ids of those whose counted contribution differs from their evidence.
    public var differing: [String]

    /// A finding.
    public init(checked: Int, differing: [String]) {
        self.checked = checked
        self.differing = differing
    }
}
