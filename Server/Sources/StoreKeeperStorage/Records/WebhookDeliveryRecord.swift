public import Foundation

/// One line of a project's delivery log, as stored: which event went to which endpoint, and how it went. The
/// server answers it as the API's `WebhookDelivery`.
public struct WebhookDeliveryRecord: Sendable, Hashable {
    /// The delivery.
    public var id: Int64
    /// The event's id.
    public var eventID: String
    /// The event's type.
    public var eventType: String
    /// The endpoint it goes to.
    public var endpointID: String
    /// The subscriber it is about, as the project knows them (not the stored key).
    public var appUserID: String
    /// Where it stands.
    public var status: DeliveryStatus
    /// Attempts made.
    public var attempts: Int
    /// When the next attempt is due (pending deliveries only).
    public var nextAttemptAt: Date?
    /// When it was last attempted.
    public var lastAttemptAt: Date?
    /// The last attempt's outcome (`HTTP 503`, `timeout`…).
    public var lastResult: String?
    /// When the endpoint accepted it.
    public var deliveredAt: Date?

    /// A delivery log line with every field.
    public init(
        id: Int64, eventID: String, eventType: String, endpointID: String, appUserID: String, status: DeliveryStatus,
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
}
