import Foundation

/// Experiment enrolments on SQL: one row per project, experiment and customer key.
public struct SQLExperimentStore: ExperimentStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// The enrolments in `experiment` of any of `appUserKeys`.
    public func enrolments(projectID: String, experiment: String, appUserKeys: [String]) async throws
        -> [EnrolmentRecord]
    {
        guard !appUserKeys.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: appUserKeys.count).joined(separator: ", ")
        return try await database.read(
            "SELECT id, app_user_id, variant, enrolled_at FROM experiment_enrolments WHERE project = ? AND experiment = ? AND app_user_id IN (\(marks)) ORDER BY enrolled_at, id",
            [.text(projectID), .text(experiment)] + appUserKeys.map(SQLValue.text)
        ).map { Self.enrolment($0, projectID, experiment) }
    }

    /// Every enrolment in `experiment`, oldest first.
    public func enrolments(projectID: String, experiment: String) async throws -> [EnrolmentRecord] {
        try await database.read(
            "SELECT id, app_user_id, variant, enrolled_at FROM experiment_enrolments WHERE project = ? AND experiment = ? ORDER BY enrolled_at, id",
            [.text(projectID), .text(experiment)]
        ).map { Self.enrolment($0, projectID, experiment) }
    }

    /// See ``ExperimentStore/enrolmentDays(projectID:experiment:)``. `enrolled_at` is written with three decimals
    /// (``timestamp(_:)``), so its whole seconds are all but its last four characters: the same text functions and
    /// integer division on both databases.
    public func enrolmentDays(projectID: String, experiment: String) async throws -> [EnrolmentDay] {
        try await database.read(
            "SELECT variant, CAST(substr(enrolled_at, 1, length(enrolled_at) - 4) AS BIGINT) / 86400 AS day, COUNT(*) AS enrolled FROM experiment_enrolments WHERE project = ? AND experiment = ? GROUP BY variant, day ORDER BY day, variant",
            [.text(projectID), .text(experiment)]
        ).map {
            EnrolmentDay(
                variant: $0["variant"]?.string ?? "", day: Int($0["day"]?.int ?? 0),
                count: Int($0["enrolled"]?.int ?? 0))
        }
    }

    static func enrolment(_ row: SQLRow, _ projectID: String, _ experiment: String) -> EnrolmentRecord {
        EnrolmentRecord(
            projectID: projectID, experiment: experiment, appUserKey: row["app_user_id"]?.string ?? "",
            variant: row["variant"]?.string ?? "", enrolledAt: SQLStore.date(row["enrolled_at"]),
            sequence: row["id"]?.int ?? 0)
    }

    /// Records an enrolment and its event in one transaction, unless the key is enrolled already.
    public func enrol(_ enrolment: EnrolmentRecord) async throws -> Bool {
        try await enrol(all: [enrolment]) == 1
    }

    /// Records `enrolments` (of one experiment each, any mix) and an event for each one new, in one transaction.
    public func enrol(all enrolments: [EnrolmentRecord]) async throws -> Int {
        guard !enrolments.isEmpty else { return 0 }
        return try await database.withTransaction { tx in
            var recorded = 0
            // Five values an enrolment and seven an event: well inside either database's bound on a statement's.
            for chunk in SQLStore.chunks(enrolments) {
                let inserted = try await tx.query(
                    "INSERT INTO experiment_enrolments (project, experiment, app_user_id, variant, enrolled_at) VALUES "
                        + Array(repeating: "(?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                        + " ON CONFLICT (project, experiment, app_user_id) DO NOTHING RETURNING project, experiment, app_user_id",
                    chunk.flatMap { enrolment -> [SQLValue] in
                        [
                            .text(enrolment.projectID), .text(enrolment.experiment), .text(enrolment.appUserKey),
                            .text(enrolment.variant), .text(SQLStore.timestamp(enrolment.enrolledAt)),
                        ]
                    })
                var new = Set(
                    inserted.map {
                        [$0["project"]?.string ?? "", $0["experiment"]?.string ?? "", $0["app_user_id"]?.string ?? ""]
                    })
                let events = chunk.filter { new.remove([$0.projectID, $0.experiment, $0.appUserKey]) != nil }.map {
                    enrolment -> SQLStore.EventRow in
                    (
                        enrolment.appUserKey, "experiment_enrolled", .client, nil, nil,
                        ["experiment": .string(enrolment.experiment), "variant": .string(enrolment.variant)],
                        enrolment.enrolledAt
                    )
                }
                try await SQLStore.insertEvents(tx, events)
                recorded += events.count
            }
            return recorded
        }
    }

    /// Inside a merge the app asked for: drops the enrolments of `source` (and of the ids aliased to it) in each
    /// experiment `target` (or an id aliased to it) is enrolled in, so the merged customer keeps the target's own
    /// variant. Otherwise the earliest enrolment of the merged ids wins, and ids made up and enrolled early could
    /// move a paying customer to the variant an attacker chose.
    static func keepTargetEnrolments(
        _ tx: any SQLTransaction, project: ProjectScope, target: String, source: String
    ) async throws {
        func keys(_ customer: String) async throws -> [String] {
            [customer]
                + (try await tx.query("SELECT alias FROM aliases WHERE app_user_id = ?", [.text(customer)])
                    .compactMap { $0["alias"]?.string })
        }
        let sources = try await keys(source)
        let targets = try await keys(target)
        func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
        try await tx.query(
            "DELETE FROM experiment_enrolments WHERE project = ? AND app_user_id IN (\(marks(sources.count))) AND experiment IN (SELECT experiment FROM experiment_enrolments WHERE project = ? AND app_user_id IN (\(marks(targets.count))))",
            [.text(project.id)] + sources.map(SQLValue.text) + [.text(project.id)] + targets.map(SQLValue.text))
    }
}
