/// The project settings the owner edits through the API, read whole by each server process and kept in memory
/// until ``settingChanges`` says a project's settings changed (on any replica).
public protocol SettingStore: Sendable {
    /// Publishes the ids of projects whose settings changed (committed), like ``EvidenceStore/changes`` does for
    /// subscribers: at once in this process, and from other processes through PostgreSQL's notifications.
    var settingChanges: SubscriberChanges { get }

    /// Every setting of a project, by kind and then name.
    func projectSettings(projectID: String) async throws -> [ProjectSetting]

    /// Writes a setting as `mode` allows.
    /// - Returns: Whether it was written (`false`: `create` found one already, or `replace` found none).
    func saveProjectSetting(_ setting: ProjectSetting, mode: SettingWrite) async throws -> Bool

    /// Removes a setting.
    /// - Returns: Whether it existed.
    func deleteProjectSetting(projectID: String, kind: String, name: String) async throws -> Bool
}
