/// The body of `POST /v1/subscribers/{id}/alias`: the path's id becomes another name for this one.
public struct AliasPost: Codable, Sendable, Hashable {
    /// The id that stays the subscriber's (1–256 bytes).
    public var newAppUserID: String

    /// Makes a request.
    public init(newAppUserID: String) { self.newAppUserID = newAppUserID }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable { case newAppUserID = "new_app_user_id" }
}

extension AliasPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .newAppUserID: .required(.text.length(1...256))
        }
    }
}
