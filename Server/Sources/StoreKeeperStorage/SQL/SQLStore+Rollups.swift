public import Foundation
public import SubscriptionEngine
public import SubscriptionMetrics

/// Metric rollups (``MetricRollup``): each subscriber's contribution kept beside its row, and a project's summed
/// per-day rows, both changed by every write that changes a subscriber, in that write's transaction.
extension SQLStore {
    /// Brings the rollups of `changed` subscribers up to date in the write's transaction: each one's contribution
    /// is computed again from its whole evidence (the row as written, `nil` for a row deleted, and its history),
    /// and the project's rows gain the difference from the contribution stored before. Nothing without
    /// ``rollupRules``.
    /// - Parameters:
    ///   - tx: The write's transaction, holding the subscribers' locks.
    ///   - changed: Each changed subscriber (stored key) with the evidence its row now holds.
    func refreshRollups(_ tx: any SQLTransaction, _ changed: [(user: String, evidence: EvidenceSet?)]) async throws {
        guard let rules = rollupRules, !changed.isEmpty else { return }
        var latest: [String: EvidenceSet?] = [:]
        for (user, evidence) in changed { latest[user] = evidence }
        let users = latest.keys.sorted()
        let history = try await Self.histories(tx, users)
        let stored = try await Self.contributions(tx, users)
        var totals: [ProjectRollupKey: Int64] = [:]
        var kept: [(user: String, text: String?)] = []
        for user in users {
            var contribution: [RollupKey: Int64] = [:]
            if case .some(.some(var evidence)) = latest[user] {
                for past in history[user] ?? [] { evidence.formUnion(past) }
                contribution = MetricRollup.contribution(SubscriptionTimeline.timelines(evidence), proceeds: rules)
            }
            let old = stored[user] ?? [:]
            guard contribution != old else { continue }
            let project = ProjectScope.id(ofKey: user)
            for (key, value) in MetricRollup.difference(from: old, to: contribution) {
                totals[ProjectRollupKey(project: project, key: key), default: 0] += value
            }
            kept.append((user, contribution.isEmpty ? nil : try RollupContributionCoding.encode(contribution)))
        }
        try await Self.writeContributions(tx, kept)
        try await Self.addRollups(tx, totals.filter { $0.value != 0 }.sorted { $0.key < $1.key })
    }

    /// The history of each of `users`, one set per stored observation.
    static func histories(_ tx: any SQLTransaction, _ users: [String]) async throws -> [String: [EvidenceSet]] {
        var result: [String: [EvidenceSet]] = [:]
        for row in try await selectIn(tx, "SELECT app_user_id, evidence_json FROM evidence_history", users) {
            guard let user = row["app_user_id"]?.string else { continue }
            result[user, default: []].append(
                try decodeStored(EvidenceSet.self, row["evidence_json"], empty: "{}", what: "history of \(user)"))
        }
        return result
    }

    /// The stored contribution of each of `users` that has one.
    static func contributions(_ tx: any SQLTransaction, _ users: [String]) async throws -> [String: [RollupKey:
        Int64]]
    {
        var result: [String: [RollupKey: Int64]] = [:]
        for row in try await selectIn(
            tx, "SELECT app_user_id, contribution FROM metric_contributions", users)
        {
            guard let user = row["app_user_id"]?.string, let text = row["contribution"]?.string else { continue }
            result[user] = try RollupContributionCoding.decode(text, of: user)
        }
        return result
    }

    /// `select` with `WHERE app_user_id` in `users` (an array on PostgreSQL, chunks of placeholders on SQLite).
    static func selectIn(_ tx: any SQLTransaction, _ select: String, _ users: [String]) async throws -> [SQLRow] {
        guard !users.isEmpty else { return [] }
        if tx.dialect.bindsArrays {
            return try await tx.query(select + " WHERE app_user_id = ANY(?)", [.texts(users)])
        }
        var rows: [SQLRow] = []
        for start in stride(from: 0, to: users.count, by: 500) {
            let chunk = Array(users[start..<min(users.count, start + 500)])
            rows += try await tx.query(
                select + " WHERE app_user_id IN (" + Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    + ")", chunk.map(SQLValue.text))
        }
        return rows
    }

    /// Stores each subscriber's new contribution (`nil`: none, its row is deleted): one statement for the rows
    /// written and one for those deleted (arrays on PostgreSQL, chunks on SQLite).
    static func writeContributions(_ tx: any SQLTransaction, _ kept: [(user: String, text: String?)]) async throws {
        let written = kept.compactMap { entry in entry.text.map { (entry.user, $0) } }
        let deleted = kept.filter { $0.text == nil }.map(\.user)
        let upsert =
            " ON CONFLICT (app_user_id) DO UPDATE SET contribution = excluded.contribution"
        if tx.dialect.bindsArrays {
            if !written.isEmpty {
                try await tx.query(
                    "INSERT INTO metric_contributions (app_user_id, contribution) SELECT * FROM unnest(?, ?)" + upsert,
                    [.texts(written.map(\.0)), .texts(written.map(\.1))])
            }
            if !deleted.isEmpty {
                try await tx.query("DELETE FROM metric_contributions WHERE app_user_id = ANY(?)", [.texts(deleted)])
            }
            return
        }
        for start in stride(from: 0, to: written.count, by: 400) {
            let chunk = written[start..<min(written.count, start + 400)]
            try await tx.query(
                "INSERT INTO metric_contributions (app_user_id, contribution) VALUES "
                    + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ") + upsert,
                chunk.flatMap { [SQLValue.text($0.0), .text($0.1)] })
        }
        for start in stride(from: 0, to: deleted.count, by: 400) {
            let chunk = deleted[start..<min(deleted.count, start + 400)]
            try await tx.query(
                "DELETE FROM metric_contributions WHERE app_user_id IN ("
                    + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")",
                chunk.map(SQLValue.text))
        }
    }

    static let rollupColumns = "project, metric, day, product, storefront, environment, offer_type, series, col, value"
    static let rollupConflict =
        " ON CONFLICT (project, metric, day, product, storefront, environment, offer_type, series, col) DO UPDATE SET value = metric_rollups.value + excluded.value"

    /// Adds `rows` to the rollups, in key order (project, then ``RollupKey``'s order).
    static func addRollups(_ tx: any SQLTransaction, _ rows: [(key: ProjectRollupKey, value: Int64)]) async throws {
        guard !rows.isEmpty else { return }
        if tx.dialect.bindsArrays {
            let keys = rows.map(\.key.key)
            try await tx.query(
                "INSERT INTO metric_rollups (\(rollupColumns)) SELECT * FROM unnest(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    + rollupConflict,
                [
                    .texts(rows.map(\.key.project)), .texts(keys.map(\.metric.rawValue)),
                    .integers(keys.map { Int64($0.day) }), .texts(keys.map(\.product)), .texts(keys.map(\.storefront)),
                    .texts(keys.map(\.environment)), .texts(keys.map(\.offerType)), .texts(keys.map(\.series)),
                    .integers(keys.map { Int64($0.column.rawValue) }), .integers(rows.map(\.value)),
                ])
            return
        }
        // SQLite: up to 90 rows a statement (900 bound values).
        for start in stride(from: 0, to: rows.count, by: 90) {
            let chunk = rows[start..<min(rows.count, start + 90)]
            var binds: [SQLValue] = []
            for (scoped, value) in chunk {
                let key = scoped.key
                binds += [
                    .text(scoped.project), .text(key.metric.rawValue), .integer(Int64(key.day)), .text(key.product),
                    .text(key.storefront), .text(key.environment), .text(key.offerType), .text(key.series),
                    .integer(Int64(key.column.rawValue)), .integer(value),
                ]
            }
            try await tx.query(
                "INSERT INTO metric_rollups (\(rollupColumns)) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                    + rollupConflict, binds)
        }
    }
}

/// A rollup key under its project: how a write's differences for several projects are gathered and ordered.
struct ProjectRollupKey: Hashable, Comparable {
    /// The project id.
    var project: String
    /// The row within the project.
    var key: RollupKey

    static func < (lhs: ProjectRollupKey, rhs: ProjectRollupKey) -> Bool {
        lhs.project != rhs.project ? lhs.project < rhs.project : lhs.key < rhs.key
    }
}
