import Foundation

/// Project settings on SQL: one row per project, kind and name; each committed change published to
/// ``settingChanges`` (and, on PostgreSQL, to other processes by the table's trigger on ``channel``).
public struct SQLSettingStore: SettingStore {
    /// The PostgreSQL notification channel that carries the ids of projects whose settings changed.
    public static let channel = "storekeeper_settings"

    /// The database (the store's, audited).
    let database: any SQLDatabase
    /// Which projects' settings changed.
    public let settingChanges: SubscriberChanges

    /// The settings over a database.
    /// - Parameters:
    ///   - database: The shared connection.
    ///   - settingChanges: Where each committed change is published.
    init(database: any SQLDatabase, settingChanges: SubscriberChanges) {
        self.database = database
        self.settingChanges = settingChanges
    }

    /// Every setting of a project, by kind and then name.
    public func projectSettings(projectID: String) async throws -> [ProjectSetting] {
        try await database.read(
            "SELECT kind, name, body, updated_at FROM project_settings WHERE project = ? ORDER BY kind, name",
            [.text(projectID)]
        ).map { row in
            ProjectSetting(
                projectID: projectID, kind: row["kind"]?.string ?? "", name: row["name"]?.string ?? "",
                body: row["body"]?.string ?? "", updatedAt: SQLStore.date(row["updated_at"]))
        }
    }

    /// Writes a setting as `mode` allows, and publishes its project's change once committed.
    public func saveProjectSetting(_ setting: ProjectSetting, mode: SettingWrite) async throws -> Bool {
        let binds: [SQLValue] = [
            .text(setting.projectID), .text(setting.kind), .text(setting.name), .text(setting.body),
            .text(SQLStore.timestamp(setting.updatedAt)),
        ]
        let written = try await database.withTransaction { tx in
            let rows: [SQLRow]
            switch mode {
            case .create:
                rows = try await tx.query(
                    "INSERT INTO project_settings (project, kind, name, body, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (project, kind, name) DO NOTHING RETURNING name",
                    binds)
            case .upsert:
                rows = try await tx.query(
                    "INSERT INTO project_settings (project, kind, name, body, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (project, kind, name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at RETURNING name",
                    binds)
            case .replace:
                rows = try await tx.query(
                    "UPDATE project_settings SET body = ?, updated_at = ? WHERE project = ? AND kind = ? AND name = ? RETURNING name",
                    [binds[3], binds[4], binds[0], binds[1], binds[2]])
            }
            return !rows.isEmpty
        }
        if written { settingChanges.publish(.changed([setting.projectID])) }
        return written
    }

    /// Removes a setting, and publishes its project's change once committed.
    public func deleteProjectSetting(projectID: String, kind: String, name: String) async throws -> Bool {
        let deleted = try await database.withTransaction { tx in
            try await !tx.query(
                "DELETE FROM project_settings WHERE project = ? AND kind = ? AND name = ? RETURNING name",
                [.text(projectID), .text(kind), .text(name)]
            ).isEmpty
        }
        if deleted { settingChanges.publish(.changed([projectID])) }
        return deleted
    }
}
