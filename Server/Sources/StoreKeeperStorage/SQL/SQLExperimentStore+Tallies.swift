import Foundation

/// Experiment tallies on SQL: one `experiment_tallies` row per experiment (its sums as JSON, its mark, generation
/// and cursor) and one `experiment_outcomes` row per enrolment. Every change to them is one transaction that
/// locks the tally row first, so writers take turns and each moves the sums by exactly what its rows change.
extension SQLExperimentStore {
    /// See ``ExperimentStore/experimentTally(projectID:experiment:)``.
    public func experimentTally(projectID: String, experiment: String) async throws -> ExperimentTally? {
        try await database.withReadTransaction { tx in
            try await Self.tally(tx, projectID, experiment, lock: false)
        }
    }

    /// See ``ExperimentStore/resetExperimentTally(projectID:experiment:mark:cursor:)``.
    public func resetExperimentTally(projectID: String, experiment: String, mark: String, cursor: EventFeedCursor?)
        async throws -> ExperimentTally
    {
        let stamp = SQLStore.timestamp(Date())
        let tally = ExperimentTally(
            mark: mark, generation: UUID().uuidString, cursor: cursor, ready: false, variants: [:],
            updatedAt: SQLStore.date(.text(stamp)))
        try await database.withTransaction { tx in
            try await tx.query(
                "DELETE FROM experiment_outcomes WHERE project = ? AND experiment = ?",
                [.text(projectID), .text(experiment)])
            try await tx.query(
                "INSERT INTO experiment_tallies (project, experiment, mark, generation, cursor_tx, cursor_id, ready, variants, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, '{}', ?) ON CONFLICT (project, experiment) DO UPDATE SET mark = excluded.mark, generation = excluded.generation, cursor_tx = excluded.cursor_tx, cursor_id = excluded.cursor_id, ready = 0, variants = '{}', updated_at = excluded.updated_at",
                [.text(projectID), .text(experiment)] + Self.tallyHead(tally) + [.text(stamp)])
        }
        return tally
    }

    /// See ``ExperimentStore/commitExperimentRows(_:projectID:experiment:expected:cursor:ready:)``.
    public func commitExperimentRows(
        _ rows: [ExperimentOutcomeRow], projectID: String, experiment: String, expected: ExperimentTally,
        cursor: EventFeedCursor?, ready: Bool
    ) async throws -> ExperimentTally? {
        // One row per key (the last given wins), so no enrolment is counted twice.
        var byKey: [String: ExperimentOutcomeRow] = [:]
        for row in rows { byKey[row.appUserKey] = row }
        let unique = byKey.keys.sorted().compactMap { byKey[$0] }
        return try await database.withTransaction { tx in
            guard let stored = try await Self.tally(tx, projectID, experiment, lock: true),
                stored.generation == expected.generation, stored.cursor == expected.cursor
            else { return nil }
            var tally = stored
            for chunk in SQLStore.chunks(unique) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let old = try await tx.query(
                    "SELECT app_user_id, variant, counted, evidenced, trial, converted, revenue, proceeds, refunds FROM experiment_outcomes WHERE project = ? AND experiment = ? AND app_user_id IN (\(marks))",
                    [.text(projectID), .text(experiment)] + chunk.map { .text($0.appUserKey) })
                for row in old.map(Self.outcomeRow) {
                    tally.variants[row.variant] = (tally.variants[row.variant] ?? VariantTally()).adding(row, sign: -1)
                }
                for row in chunk {
                    tally.variants[row.variant] = (tally.variants[row.variant] ?? VariantTally()).adding(row, sign: 1)
                }
                let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count)
                try await tx.query(
                    "INSERT INTO experiment_outcomes (project, experiment, app_user_id, variant, counted, evidenced, trial, converted, revenue, proceeds, refunds) VALUES \(values.joined(separator: ", ")) ON CONFLICT (project, experiment, app_user_id) DO UPDATE SET variant = excluded.variant, counted = excluded.counted, evidenced = excluded.evidenced, trial = excluded.trial, converted = excluded.converted, revenue = excluded.revenue, proceeds = excluded.proceeds, refunds = excluded.refunds",
                    chunk.flatMap { row -> [SQLValue] in
                        [
                            .text(projectID), .text(experiment), .text(row.appUserKey), .text(row.variant),
                            .integer(row.counted ? 1 : 0), .integer(row.evidenced ? 1 : 0),
                            .integer(row.startedTrial ? 1 : 0), .integer(row.converted ? 1 : 0),
                            .integer(row.revenueMicros), .integer(row.proceedsMicros), .integer(row.refunds),
                        ]
                    })
            }
            tally.cursor = cursor
            tally.ready = ready
            let stamp = SQLStore.timestamp(Date())
            tally.updatedAt = SQLStore.date(.text(stamp))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let variants = String(decoding: try encoder.encode(tally.variants), as: UTF8.self)
            try await tx.query(
                "UPDATE experiment_tallies SET mark = ?, generation = ?, cursor_tx = ?, cursor_id = ?, ready = ?, variants = ?, updated_at = ? WHERE project = ? AND experiment = ?",
                Self.tallyHead(tally) + [
                    .integer(ready ? 1 : 0), .text(variants), .text(stamp), .text(projectID),
                    .text(experiment),
                ])
            return tally
        }
    }

    /// See ``ExperimentStore/keyGroups(_:)``.
    public func keyGroups(_ keys: [String]) async throws -> [KeyGroup] {
        var accountOf: [String: String] = [:]
        for chunk in SQLStore.chunks(Array(Set(keys))) {
            let rows = try await database.read(
                "SELECT alias, app_user_id FROM aliases WHERE alias IN (\(Self.marks(chunk)))", chunk.map(SQLValue.text)
            )
            for row in rows {
                if let alias = row["alias"]?.string, let user = row["app_user_id"]?.string { accountOf[alias] = user }
            }
        }
        let accounts = Array(Set(keys.map { accountOf[$0] ?? $0 })).sorted()
        var groups: [String: KeyGroup] = [:]
        for account in accounts { groups[account] = KeyGroup(account: account, keys: [account], stored: false) }
        for chunk in SQLStore.chunks(accounts) {
            let binds = chunk.map(SQLValue.text)
            for row in try await database.read(
                "SELECT alias, app_user_id FROM aliases WHERE app_user_id IN (\(Self.marks(chunk)))", binds)
            {
                if let alias = row["alias"]?.string, let user = row["app_user_id"]?.string {
                    groups[user]?.keys.insert(alias)
                }
            }
            for row in try await database.read(
                "SELECT app_user_id FROM subscribers WHERE app_user_id IN (\(Self.marks(chunk)))", binds)
            {
                if let user = row["app_user_id"]?.string { groups[user]?.stored = true }
            }
        }
        return accounts.compactMap { groups[$0] }
    }

    static func marks(_ values: [String]) -> String {
        Array(repeating: "?", count: values.count).joined(separator: ", ")
    }

    /// The mark, generation and cursor of `tally`, as bound in that order.
    static func tallyHead(_ tally: ExperimentTally) -> [SQLValue] {
        [
            .text(tally.mark), .text(tally.generation), tally.cursor.map { .text(String($0.transaction)) } ?? .null,
            tally.cursor.map { .integer($0.id) } ?? .null,
        ]
    }

    static func tally(_ tx: any SQLTransaction, _ projectID: String, _ experiment: String, lock: Bool) async throws
        -> ExperimentTally?
    {
        guard
            let row = try await tx.query(
                "SELECT mark, generation, cursor_tx, cursor_id, ready, variants, updated_at FROM experiment_tallies WHERE project = ? AND experiment = ?\(lock ? tx.dialect.rowLock : "")",
                [.text(projectID), .text(experiment)]
            ).first
        else { return nil }
        let cursor = row["cursor_id"]?.int.map {
            EventFeedCursor(transaction: UInt64(row["cursor_tx"]?.string ?? "") ?? 0, id: $0)
        }
        return ExperimentTally(
            mark: row["mark"]?.string ?? "", generation: row["generation"]?.string ?? "", cursor: cursor,
            ready: row["ready"]?.int == 1,
            variants: try SQLStore.decodeStored(
                [String: VariantTally].self, row["variants"], empty: "{}", what: "tally of \(experiment)"),
            updatedAt: SQLStore.date(row["updated_at"]))
    }

    static func outcomeRow(_ row: SQLRow) -> ExperimentOutcomeRow {
        ExperimentOutcomeRow(
            appUserKey: row["app_user_id"]?.string ?? "", variant: row["variant"]?.string ?? "",
            counted: row["counted"]?.int == 1, evidenced: row["evidenced"]?.int == 1,
            startedTrial: row["trial"]?.int == 1, converted: row["converted"]?.int == 1,
            revenueMicros: row["revenue"]?.int ?? 0, proceedsMicros: row["proceeds"]?.int ?? 0,
            refunds: row["refunds"]?.int ?? 0)
    }
}
