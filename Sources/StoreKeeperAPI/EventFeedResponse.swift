/// A page of the project's event feed (`GET /v1/events`): events in commit order, and the cursor to pass as
/// `after` for the next page (the same cursor when nothing new has committed yet).
public struct EventFeedResponse: Codable, Sendable, Hashable {
    /// The events, oldest first.
    public var events: [ProjectEvent]
    /// Where the next read resumes; `nil` only when the feed is empty and no cursor was given.
    public var nextCursor: String?

    /// Makes a page.
    public init(events: [ProjectEvent], nextCursor: String?) {
        self.events = events
        self.nextCursor = nextCursor
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case events, nextCursor = "next_cursor" }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

extension EventFeedResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .events: .required(.array(of: .type(ProjectEvent.self)))
        case .nextCursor:
            .required(
                .text.nullable.described(
                    "Pass as `after` to read on: the same cursor comes back until another event commits."))
        }
    }
}
