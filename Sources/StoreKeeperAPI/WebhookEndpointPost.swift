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

extension WebhookEndpointPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .url: .required(.text.length(1...2048).described("Absolute http or https URL with a host"))
        case .eventTypes:
            .optional(
                .array(
                    of: .named("WebhookEventType")
                ).described("Absent or empty: every type"))
        }
    }
}
