public import Foundation

/// `GET /v1/audit`: a page of the project's audit log, oldest first.
public struct AuditLogResponse: Codable, Sendable, Hashable {
    /// The entries, oldest first.
    public var entries: [AuditLogEntry]
    /// Pass as `after` for the next page (the last entry's id; the same cursor when the page is empty).
    public var nextCursor: String?

    /// Makes a response.
    public init(entries: [AuditLogEntry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case entries, nextCursor = "next_cursor" }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

/// One change made with a secret key or through the dashboard.
public struct AuditLogEntry: Codable, Sendable, Hashable {
    /// Its position in the log.
    public var id: Int64
    /// When the request that made it arrived.
    public var at: Date
    /// Who: `key:` or `dashboard:` and a fingerprint of the secret key (16 hex digits of its SHA-256).
    public var actor: String
    /// The caller's network address, when the server saw one.
    public var address: String?
    /// The route: `PUT /v1/targeting`.
    public var route: String
    /// What it was about: path parameters, a customer as `customer:` and a hash.
    public var target: String?
    /// The change in brief.
    public var summary: String

    /// Makes an entry.
    public init(
        id: Int64, at: Date, actor: String, address: String?, route: String, target: String?, summary: String
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.address = address
        self.route = route
        self.target = target
        self.summary = summary
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, at, actor, address, route, target, summary
    }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(at, forKey: .at)
        try c.encode(actor, forKey: .actor)
        try c.encode(address, forKey: .address)
        try c.encode(route, forKey: .route)
        try c.encode(target, forKey: .target)
        try c.encode(summary, forKey: .summary)
    }
}

extension AuditLogEntry: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(description: "One change made with a secret key or through the dashboard")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.integer)
        case .at: .required(.dateTime)
        case .actor: .required(.text.described("key: or dashboard: and 16 hex digits of the SHA-256 of the secret key"))
        case .address: .required(.text.nullable)
        case .route: .required(.text)
        case .target:
            .required(.text.nullable.described("Path parameters; a customer as customer: and a hash of the id"))
        case .summary: .required(.text)
        }
    }
}

extension AuditLogResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .entries: .required(.array(of: .type(AuditLogEntry.self)))
        case .nextCursor: .required(.text.nullable)
        }
    }
}
