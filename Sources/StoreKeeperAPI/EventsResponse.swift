/// `GET /v1/subscribers/{id}/events`: the subscriber's history, oldest first.
public struct EventsResponse: Codable, Sendable, Hashable {
    /// The events.
    public var events: [SubscriberEvent]

    /// Makes a response.
    public init(events: [SubscriberEvent]) { self.events = events }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case events }
}

extension EventsResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .events: .required(.array(of: .type(SubscriberEvent.self)))
        }
    }
}
