/// `POST /v1/webhooks`: a new endpoint of the caller's project.
public struct WebhookEndpointPost: Codable, Sendable, Hashable {
    /// Where deliveries are posted: an absolute `https` (or `http`) URL.
    public var url: String
    /// The event types it wants; absent or empty: every type.
    public var eventTypes: [String]?

    /// Makes the body.
    public init(url: String, eventTypes: [String]? = nil) {
        self.url = url
        self.eventTypes = eventTypes
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case url, eventTypes = "event_types"
    }
}
