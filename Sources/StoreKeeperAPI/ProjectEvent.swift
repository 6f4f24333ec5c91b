public import Foundation
public import StoreKeeperWire

/// One event of the project's feed (`GET /v1/events`): a subscriber's change of state with its cause, and whose.
public struct ProjectEvent: Codable, Sendable, Hashable {
    /// Increasing id (unique; the feed's order is commit order, which ids follow on SQLite only).
    public var id: Int64
    /// The subscriber it is about, as the project knows them.
    public var appUserID: String
    /// When it was stored (the server's clock).
    public var createdAt: Date
    /// What happened (as ``SubscriberEvent/type``).
    public var type: String
    /// Why: `client`, `notification`, `poll`, `identity`, `import`….
    public var cause: String
    /// The notification's UUID (or another id of the cause).
    public var causeID: String?
    /// The stored raw evidence it came from.
    public var evidenceID: Int64?
    /// Facts about it, each a string, an integer or a boolean.
    public var detail: [String: EventDetailValue]

    /// Makes an event.
    public init(
        id: Int64, appUserID: String, createdAt: Date, type: String, cause: String, causeID: String?,
        evidenceID: Int64?, detail: [String: EventDetailValue]
    ) {
        self.id = id
        self.appUserID = appUserID
        self.createdAt = createdAt
        self.type = type
        self.cause = cause
        self.causeID = causeID
        self.evidenceID = evidenceID
        self.detail = detail
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, appUserID = "app_user_id", createdAt = "created_at", type, cause, causeID = "cause_id"
        case evidenceID = "evidence_id", detail
    }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(appUserID, forKey: .appUserID)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(type, forKey: .type)
        try c.encode(cause, forKey: .cause)
        try c.encode(causeID, forKey: .causeID)
        try c.encode(evidenceID, forKey: .evidenceID)
        try c.encode(detail, forKey: .detail)
    }
}

extension ProjectEvent: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.integer)
        case .appUserID: .required(.text)
        case .createdAt: .required(.text)
        case .type: .required(.text)
        case .cause: .required(.text)
        case .causeID: .required(.text.nullable)
        case .evidenceID: .required(.integer.nullable)
        case .detail: .required(.map(of: .anyOf(types: ["string", "integer", "boolean"])))
        }
    }
}
