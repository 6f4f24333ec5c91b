public import Foundation

/// One event's delivery to one endpoint, in the delivery log.
public struct WebhookDelivery: Codable, Sendable, Hashable {
    /// Its id (for redelivery).
    public var id: Int64
    /// The event's id.
    public var eventID: String
    /// The event's type.
    public var eventType: String
    /// The endpoint.
    public var endpointID: String
    /// The subscriber the event is about.
    public var appUserID: String
    /// `pending`, `delivered` or `failed`.
    public var status: String
    /// Attempts made.
    public var attempts: Int
    /// When the next attempt is due (pending only).
    public var nextAttemptAt: Date?
    /// When the last attempt was made.
    public var lastAttemptAt: Date?
    /// What the last attempt got (`HTTP 500`, or why it could not be sent).
    public var lastResult: String?
    /// When it was delivered.
    public var deliveredAt: Date?

    /// Makes a delivery.
    public init(
        id: Int64, eventID: String, eventType: String, endpointID: String, appUserID: String, status: String,
        attempts: Int, nextAttemptAt: Date?, lastAttemptAt: Date?, lastResult: String?, deliveredAt: Date?
    ) {
        self.id = id
        self.eventID = eventID
        self.eventType = eventType
        self.endpointID = endpointID
        self.appUserID = appUserID
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastAttemptAt = lastAttemptAt
        self.lastResult = lastResult
        self.deliveredAt = deliveredAt
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, eventID = "event_id", eventType = "event_type", endpointID = "endpoint_id"
        case appUserID = "app_user_id", status, attempts, nextAttemptAt = "next_attempt_at"
        case lastAttemptAt = "last_attempt_at", lastResult = "last_result", deliveredAt = "delivered_at"
    }
}

/// `GET /v1/webhooks/{id}/deliveries` and `GET /v1/subscribers/{id}/webhook_deliveries`: a delivery log.
public struct WebhookDeliveriesResponse: Codable, Sendable, Hashable {
    /// The deliveries, newest first.
    public var deliveries: [WebhookDelivery]

    /// Makes the answer.
    public init(deliveries: [WebhookDelivery]) { self.deliveries = deliveries }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case deliveries }
}

extension WebhookDeliveriesResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .deliveries: .required(.array(of: .type(WebhookDelivery.self)))
        }
    }
}

extension WebhookDelivery: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.integer)
        case .eventID: .required(.text)
        case .eventType: .required(.text)
        case .endpointID: .required(.text)
        case .appUserID: .required(.text)
        case .status: .required(.oneOf(["pending", "delivered", "failed"]))
        case .attempts: .required(.integer)
        case .nextAttemptAt: .optional(.dateTime.nullable)
        case .lastAttemptAt: .optional(.dateTime.nullable)
        case .lastResult: .optional(.text.nullable)
        case .deliveredAt: .optional(.dateTime.nullable)
        }
    }
}
