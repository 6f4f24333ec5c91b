public import Foundation
import Synchronization

/// Project settings in this process's memory: the ``SettingStore`` a service's specs run on without a database
/// (``SettingStoreConformanceTests`` holds it to the SQL store's behaviour). Nothing survives the process, and no
/// other process hears its changes.
public final class MemorySettingStore: SettingStore {
    /// Live from the start: every change is this process's own.
    public let settingChanges = SubscriberChanges(liveFromStart: true)
    /// Every setting, by project, kind and name.
    let settings = Mutex<[SettingKey: ProjectSetting]>([:])

    /// A setting's place: its project, kind and name.
    struct SettingKey: Hashable {
        var project: String
        var kind: String
        var name: String
    }

    /// An empty store.
    public init() {}

    /// Every setting of a project, by kind and then name.
    public func projectSettings(projectID: String) async throws -> [ProjectSetting] {
        settings.withLock { settings in
            settings.values.filter { $0.projectID == projectID }.sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
        }
    }

    /// Writes a setting as `mode` allows, and publishes its project's change.
    public func saveProjectSetting(_ setting: ProjectSetting, mode: SettingWrite) async throws -> Bool {
        let key = SettingKey(project: setting.projectID, kind: setting.kind, name: setting.name)
        let written = settings.withLock { settings in
            switch (mode, settings[key] == nil) {
            case (.create, false), (.replace, true): return false
            default:
                settings[key] = setting
                return true
            }
        }
        if written { settingChanges.publish(.changed([setting.projectID])) }
        return written
    }

    /// Removes a setting, and publishes its project's change.
    public func deleteProjectSetting(projectID: String, kind: String, name: String) async throws -> Bool {
        let key = SettingKey(project: projectID, kind: kind, name: name)
        let deleted = settings.withLock { $0.removeValue(forKey: key) != nil }
        if deleted { settingChanges.publish(.changed([projectID])) }
        return deleted
    }
}
