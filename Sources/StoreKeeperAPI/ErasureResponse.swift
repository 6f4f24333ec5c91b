/// The answer of `DELETE /v1/subscribers/{id}`: what the erasure removed. The customer is gone from every read
/// (the subscriber answers as an id never seen, search and lists do not find it, the event feed skips it).
public struct ErasureResponse: Codable, Sendable, Hashable {
    /// The customer erased (an alias asked for resolves to it).
    public var appUserID: String
    /// Its aliases, erased with it.
    public var aliases: [String]
    /// How many subscriptions and purchases it owned.
    public var subscriptions: Int
    /// How many stored rows were deleted, all tables together.
    public var rows: Int

    /// Makes a response.
    public init(appUserID: String, aliases: [String], subscriptions: Int, rows: Int) {
        self.appUserID = appUserID
        self.aliases = aliases
        self.subscriptions = subscriptions
        self.rows = rows
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", aliases, subscriptions, rows
    }
}

extension ErasureResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text)
        case .aliases: .required(.array(of: .text))
        case .subscriptions: .required(.integer.range(0...Int.max))
        case .rows: .required(.integer.range(0...Int.max))
        }
    }
}
