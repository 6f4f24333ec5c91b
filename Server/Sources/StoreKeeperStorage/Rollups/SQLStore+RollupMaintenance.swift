public import Foundation
import SubscriptionEngine
public import SubscriptionMetrics

/// Reading, building and checking a project's metric rollups.
extension SQLStore {
    /// A project's rollups: every stored row, summed by key (zeros left out).
    /// - Parameter project: The project.
    public func rollups(in project: ProjectScope) async throws -> [RollupKey: Int64] {
        let rows = try await database.read(
            "SELECT metric, day, product, storefront, environment, offer_type, series, col, value FROM metric_rollups WHERE project = ?",
            [.text(project.id)])
        var result: [RollupKey: Int64] = [:]
        for row in rows {
            let name = row["metric"]?.string ?? ""
            guard let metric = MetricName(rawValue: name),
                let column = RollupColumn(rawValue: Int(row["col"]?.int ?? -1))
            else { throw StorageError("a stored rollup of project \(project.id) names metric \"\(name)\"") }
            let key = RollupKey(
                metric: metric, day: Int(row["day"]?.int ?? 0), product: row["product"]?.string ?? "",
                storefront: row["storefront"]?.string ?? "", environment: row["environment"]?.string ?? "",
                offerType: row["offer_type"]?.string ?? "", series: row["series"]?.string ?? "", column: column)
            result[key, default: 0] += row["value"]?.int ?? 0
        }
        return result.filter { $0.value != 0 }
    }

    /// Forgets a project's rollups and every customer they counted, then builds them again from the stored
    /// evidence (``refreshRollups(in:pageSize:progress:)``) and marks them whole: what builds a database's first
    /// rollups and repairs any that drifted. Writes meanwhile stay right (no customer counted and no rows are
    /// consistent); queries do not read them until they are marked whole.
    /// - Parameters:
    ///   - project: The project.
    ///   - progress: Called after each page with the subscribers done so far.
    /// - Returns: How many subscribers were counted.
    @discardableResult
    public func rebuildRollups(in project: ProjectScope, progress: (Int) -> Void = { _ in }) async throws -> Int {
        guard rollupRules != nil else { throw StorageError("metric rollups are not kept by this store") }
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        try await database.withTransaction { tx in
            // Under the project's subscribers' locks where rows are locked, so no write is half-way through.
            let users = try await tx.query(
                "SELECT app_user_id FROM metric_customers WHERE \(keys.sql)", keys.binds
            ).compactMap { $0["app_user_id"]?.string }
            try await Self.lock(tx, users.map { "user:\($0)" })
            try await tx.query(
                "DELETE FROM metric_customers WHERE \(keys.sql)", keys.binds)
            try await tx.query("DELETE FROM metric_rollups WHERE project = ?", [.text(project.id)])
            try await tx.query("DELETE FROM metric_rollup_builds WHERE project = ?", [.text(project.id)])
        }
        let counted = try await refreshRollups(in: project, progress: progress)
        try await markRollupsBuilt(project)
        return counted
    }

    /// Counts every subscriber of `project` the rollups do not count yet (written while no server kept them),
    /// from its stored evidence under its lock, as a write would (safe beside concurrent writes, which keep the
    /// counted ones). Builds the rollups of a database that had none.
    /// - Parameters:
    ///   - project: The project.
    ///   - pageSize: Subscribers per transaction.
    ///   - progress: Called after each page with the subscribers done so far.
    /// - Returns: How many subscribers were looked at.
    @discardableResult
    public func refreshRollups(
        in project: ProjectScope, pageSize: Int = 200, progress: (Int) -> Void = { _ in }
    ) async throws -> Int {
        guard rollupRules != nil else { throw StorageError("metric rollups are not kept by this store") }
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        var after = ""
        var done = 0
        while true {
            let users = try await database.read(
                "SELECT app_user_id FROM subscribers WHERE \(keys.sql) AND app_user_id > ? ORDER BY app_user_id LIMIT ?",
                keys.binds + [.text(after), .integer(Int64(max(1, pageSize)))]
            ).compactMap { $0["app_user_id"]?.string }
            guard let last = users.last else { break }
            let cache = evidenceCache
            try await database.withTransaction { tx in
                try await Self.lock(tx, users.map { "user:\($0)" })
                let counted = try await Self.rollupCustomers(tx, users)
                var changes: [RollupChange] = []
                for user in users where counted[user] == nil {
                    changes.append(
                        RollupChange(
                            user: user, before: nil, after: try await Self.loadEvidence(tx, user, cache)?.evidence))
                }
                try await finishRollups(tx, try await prepareRollups(tx, changes))
            }
            done += users.count
            progress(done)
            after = last
        }
        return done
    }

    /// Checks a project's rollups against its stored evidence: every subscriber's contribution computed again
    /// and compared with the one stored, then their sum with the project's rows.
    /// - Parameters:
    ///   - project: The project.
    ///   - progress: Called after each page with the subscribers checked so far.
    /// - Returns: What was checked and the first difference found, if any.
    public func verifyRollups(in project: ProjectScope, progress: (Int) -> Void = { _ in }) async throws
        -> RollupVerification
    {
        guard let rules = rollupRules else { throw StorageError("metric rollups are not kept by this store") }
        var summed: [RollupKey: Int64] = [:]
        var checked = 0
        var after: String?
        while true {
            let page = try await evidencePage(in: project, after: after, limit: 500)
            let stored = try await database.withReadTransaction { tx in
                try await Self.rollupCustomers(tx, page.map(\.storageKey))
            }
            for (user, evidence) in page {
                let (contribution, difference) = Self.checked(evidence, counted: stored[user], rules: rules)
                if let difference {
                    return RollupVerification(
                        subscribers: checked, rows: summed.count,
                        difference: "subscriber \(ProjectScope.value(ofKey: user)): " + difference)
                }
                for (key, value) in contribution { summed[key, default: 0] += value }
                checked += 1
            }
            progress(checked)
            guard page.count == 500, let last = page.last else { break }
            after = last.storageKey
        }
        let expected = summed.filter { $0.value != 0 }
        let stored = try await rollups(in: project)
        let difference = stored == expected ? nil : "rollups: " + Self.firstDifference(stored, expected)
        return RollupVerification(subscribers: checked, rows: expected.count, difference: difference)
    }

    /// One customer's contribution from its whole evidence, and how what the rollups counted of it differs (`nil`
    /// when it does not): the one rule ``verifyRollups(in:progress:)`` and ``auditRollups(in:after:limit:)`` apply.
    static func checked(_ evidence: EvidenceSet, counted: RollupCustomer?, rules: ProceedsRules) -> (
        contribution: [RollupKey: Int64], difference: String?
    ) {
        let timelines = SubscriptionTimeline.timelines(evidence)
        let contribution = MetricRollup.contribution(timelines, proceeds: rules)
        let expected = timelines.isEmpty ? nil : MetricRollup.fingerprint(contribution)
        guard counted?.fingerprint != expected else { return (contribution, nil) }
        return (
            contribution,
            counted == nil ? "the rollups do not count it" : "its counted contribution differs from its evidence"
        )
    }

    /// The first key (in key order) whose values differ, told as `stored` against `expected`.
    static func firstDifference(_ stored: [RollupKey: Int64], _ expected: [RollupKey: Int64]) -> String {
        let keys = Set(stored.keys).union(expected.keys).sorted()
        guard let key = keys.first(where: { stored[$0] != expected[$0] }) else { return "none" }
        let scale = MetricRollup.scale
        return "\(key.metric.rawValue) on \(RollupDay.name(key.day)) (\(key.product), \(key.storefront), "
            + "\(key.environment), \(key.offerType), \"\(key.series)\", \(key.column)): stored "
            + "\(Double(stored[key] ?? 0) / scale), evidence gives \(Double(expected[key] ?? 0) / scale)"
    }
}

/// What ``SQLStore/verifyRollups(in:progress:)`` found.
public struct RollupVerification: Sendable, Hashable {
    /// Subscribers whose contributions matched.
    public var subscribers: Int
    /// Rollup rows the evidence gives (so far, when a subscriber differed).
    public var rows: Int
    /// The first difference, naming the subscriber or the row; `nil` when the rollups are right.
    public var difference: String?
}

/// A UTC day number written as a date.
enum RollupDay {
    /// `2026-01-31` for a day counted from 1970-01-01.
    static func name(_ day: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: MetricRollup.start(ofDay: day))
    }
}
