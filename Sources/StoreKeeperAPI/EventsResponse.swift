/// `GET /v1/subscribers/{id}/events`: the subscriber's history, oldest first.
public struct EventsResponse: Codable, Sendable, Hashable {
    /// The events.
    public var events: [SubscriberEvent]

    /// Makes a response.
    public init(events: [SubscriberEvent]) { self.events = events }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case events }
}
