/// A page of a project's customers (`GET /v1/subscribers`), in id order, and where the next page starts.
public struct SubscriberListResponse: Codable, Sendable, Hashable {
    /// The customers of this page that match the filters.
    public var subscribers: [SubscriberSummary]
    /// Pass as `cursor` for the next page; `nil` when the list is done. A page may hold fewer than `limit`
    /// customers (even none) and still have a next one: each page reads a bounded stretch of the project.
    public var nextCursor: String?

    /// Makes a page.
    public init(subscribers: [SubscriberSummary], nextCursor: String?) {
        self.subscribers = subscribers
        self.nextCursor = nextCursor
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case subscribers, nextCursor = "next_cursor" }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subscribers, forKey: .subscribers)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

extension SubscriberListResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .subscribers: .required(.array(of: .type(SubscriberSummary.self)))
        case .nextCursor:
            .required(.text.nullable.described("Pass as `cursor` for the next page; null when the list is done."))
        }
    }
}
