public import Foundation

/// A webhook endpoint of a project.
public struct WebhookEndpoint: Codable, Sendable, Hashable {
    /// Its id.
    public var id: String
    /// Where deliveries are posted.
    public var url: String
    /// The event types it receives (empty: every type).
    public var eventTypes: [String]
    /// When it was created.
    public var createdAt: Date
    /// The signing secret: present only in the answer that creates the endpoint.
    public var secret: String?

    /// Makes an endpoint.
    public init(id: String, url: String, eventTypes: [String], createdAt: Date, secret: String?) {
        self.id = id
        self.url = url
        self.eventTypes = eventTypes
        self.createdAt = createdAt
        self.secret = secret
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, url, eventTypes = "event_types", createdAt = "created_at", secret
    }
}

/// `GET /v1/webhooks`: the project's endpoints (without their secrets).
public struct WebhookEndpointsResponse: Codable, Sendable, Hashable {
    /// The endpoints, oldest first.
    public var endpoints: [WebhookEndpoint]

    /// Makes the answer.
    public init(endpoints: [WebhookEndpoint]) { self.endpoints = endpoints }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case endpoints }
}

extension WebhookEndpoint: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.text)
        case .url: .required(.text)
        case .eventTypes: .required(.array(of: .text))
        case .createdAt: .required(.dateTime)
        case .secret: .optional(.text.nullable.described("Only in the answer that creates the endpoint"))
        }
    }
}

extension WebhookEndpointsResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .endpoints: .required(.array(of: .type(WebhookEndpoint.self)))
        }
    }
}
