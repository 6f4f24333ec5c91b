import Foundation

/// Experiment enrolments on SQL: one row per project, experiment and customer key.
extension SQLStore {
    /// The enrolments in `experiment` of any of `appUserKeys`.
    public func enrolments(projectID: String, experiment: String, appUserKeys: [String]) async throws
        -> [EnrolmentRecord]
    {
        guard !appUserKeys.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: appUserKeys.count).joined(separator: ", ")
        return try await database.read(
            "SELECT app_user_id, variant, enrolled_at FROM experiment_enrolments WHERE project = ? AND experiment = ? AND app_user_id IN (\(marks)) ORDER BY enrolled_at, id",
            [.text(projectID), .text(experiment)] + appUserKeys.map(SQLValue.text)
        ).map { Self.enrolment($0, projectID, experiment) }
    }

    /// Every enrolment in `experiment`, oldest first.
    public func enrolments(projectID: String, experiment: String) async throws -> [EnrolmentRecord] {
        try await database.read(
            "SELECT app_user_id, variant, enrolled_at FROM experiment_enrolments WHERE project = ? AND experiment = ? ORDER BY enrolled_at, id",
            [.text(projectID), .text(experiment)]
        ).map { Self.enrolment($0, projectID, experiment) }
    }

    static func enrolment(_ row: SQLRow, _ projectID: String, _ experiment: String) -> EnrolmentRecord {
        EnrolmentRecord(
            projectID: projectID, experiment: experiment, appUserKey: row["app_user_id"]?.string ?? "",
            variant: row["variant"]?.string ?? "", enrolledAt: date(row["enrolled_at"]))
    }

    /// Records an enrolment and its event in one transaction, unless the key is enrolled already.
    public func enrol(_ enrolment: EnrolmentRecord) async throws -> Bool {
        try await database.withTransaction { tx in
            let inserted = try await tx.query(
                "INSERT INTO experiment_enrolments (project, experiment, app_user_id, variant, enrolled_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (project, experiment, app_user_id) DO NOTHING RETURNING variant",
                [
                    .text(enrolment.projectID), .text(enrolment.experiment), .text(enrolment.appUserKey),
                    .text(enrolment.variant), .text(Self.timestamp(enrolment.enrolledAt)),
                ])
            guard !inserted.isEmpty else { return false }
            try await Self.insertEvent(
                tx, enrolment.appUserKey, "experiment_enrolled", .client, nil, nil,
                ["experiment": .string(enrolment.experiment), "variant": .string(enrolment.variant)],
                enrolment.enrolledAt)
            return true
        }
    }
}
