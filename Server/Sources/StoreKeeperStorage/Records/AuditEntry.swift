public import Foundation

/// One change made with a secret key or through the dashboard, as the audit log keeps it: appended in the same
/// transaction as the change, never updated or deleted through the API.
public struct AuditEntry: Sendable, Hashable {
    /// Its position in the log (0 before it is stored): later entries have larger ids.
    public var id: Int64
    /// The project the change was made in.
    public var project: String
    /// When the request that made it arrived (the server's clock).
    public var at: Date
    /// Who: `key:` and the first 16 hex digits of the SHA-256 of the secret key (never the key), or `dashboard:`
    /// and the same of the key its session signed in with.
    public var actor: String
    /// The caller's network address, when the server saw one.
    public var address: String?
    /// The route: `PUT /v1/targeting`.
    public var route: String
    /// What the change is about: the path's parameters, a customer's id hashed (`customer:` and 16 hex digits).
    public var target: String?
    /// The change in brief: the body's fields, long or personal values shortened or hashed.
    public var summary: String

    /// Makes an entry.
    public init(
        id: Int64 = 0, project: String, at: Date, actor: String, address: String?, route: String, target: String?,
        summary: String
    ) {
        self.id = id
        self.project = project
        self.at = at
        self.actor = actor
        self.address = address
        self.route = route
        self.target = target
        self.summary = summary
    }
}
