public import Foundation

/// One document of a project's settings that the owner edits through the API (an offering, which offering is
/// current), stored as JSON under its kind and name.
public struct ProjectSetting: Sendable, Hashable {
    /// The project it belongs to.
    public var projectID: String
    /// What it is (`offering`, `current_offering`…): a project holds one setting per kind and name.
    public var kind: String
    /// Its name within the kind (an offering's identifier; `""` for a kind that has one document).
    public var name: String
    /// The document, as JSON.
    public var body: String
    /// When it was last written.
    public var updatedAt: Date

    /// A setting.
    public init(projectID: String, kind: String, name: String, body: String, updatedAt: Date) {
        self.projectID = projectID
        self.kind = kind
        self.name = name
        self.body = body
        self.updatedAt = updatedAt
    }
}

/// How a setting is written.
public enum SettingWrite: Sendable, Hashable {
    /// Only when no setting of that kind and name exists.
    case create
    /// Only when one exists.
    case replace
    /// Either way.
    case upsert
}
