public import Foundation

/// Where the owner's backend hears about changes: a URL, the event types it wants, and the secret that signs
/// each delivery.
public struct WebhookEndpointRecord: Sendable, Hashable {
    /// Its id (`wh_…`).
    public var id: String
    /// The project whose events it receives.
    public var projectID: String
    /// Where deliveries are posted.
    public var url: String
    /// The event types it wants; empty: every type.
    public var eventTypes: [String]
    /// The signing secret (stored to sign; returned by the API only when the endpoint is created).
    public var secret: String
    /// When it was created.
    public var createdAt: Date

    /// An endpoint.
    public init(id: String, projectID: String, url: String, eventTypes: [String], secret: String, createdAt: Date) {
        self.id = id
        self.projectID = projectID
        self.url = url
        self.eventTypes = eventTypes
        self.secret = secret
        self.createdAt = createdAt
    }
}

/// Where a webhook delivery stands (the log itself is ``WebhookDeliveryRecord``).
public enum DeliveryStatus: String, Sendable, Hashable, CaseIterable {
    /// Waiting for its next attempt.
    case pending
    /// The endpoint answered 2xx.
    case delivered
    /// Every attempt of the schedule failed (dead letter; it can be redelivered).
    case failed
}

/// A delivery taken by one worker until its lease ends: what it needs to send it.
public struct LeasedDelivery: Sendable, Hashable {
    /// The delivery.
    public var id: Int64
    /// The event's id.
    public var eventID: String
    /// The endpoint it goes to.
    public var endpointID: String
    /// The event's JSON body.
    public var body: String
    /// Where to post it.
    public var url: String
    /// The endpoint's signing secret.
    public var secret: String
    /// Attempts made before this one.
    public var attempts: Int

    /// A leased delivery.
    public init(
        id: Int64, eventID: String, endpointID: String = "", body: String, url: String, secret: String, attempts: Int
    ) {
        self.id = id
        self.eventID = eventID
        self.endpointID = endpointID
        self.body = body
        self.url = url
        self.secret = secret
        self.attempts = attempts
    }
}

/// What one attempt decided.
public enum DeliveryOutcome: Sendable, Hashable {
    /// Delivered.
    case delivered
    /// Failed; try again at this instant.
    case retry(at: Date)
    /// Failed for the last time (dead letter).
    case failed
    /// Not sent (its endpoint did not answer another delivery, or its lease was running out): the lease is given
    /// back, no attempt is counted, and it is due again at this instant.
    case postponed(until: Date)
}

/// One attempt of a leased delivery: what came of it.
public struct DeliveryAttempt: Sendable, Hashable {
    /// The delivery.
    public var deliveryID: Int64
    /// Delivered, to be tried again, or failed for good.
    public var outcome: DeliveryOutcome
    /// What happened, for the log (`HTTP 500`, `not sent: …`); at most 500 characters are kept.
    public var result: String

    /// An attempt.
    public init(deliveryID: Int64, outcome: DeliveryOutcome, result: String) {
        self.deliveryID = deliveryID
        self.outcome = outcome
        self.result = result
    }
}

extension WebhookStore {
    /// Takes up to `limit` due deliveries until `leaseUntil`, with no cap per endpoint beyond `limit`.
    public func leaseDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws -> [LeasedDelivery] {
        try await leaseDeliveries(now: now, leaseUntil: leaseUntil, limit: limit, perEndpoint: limit)
    }
}

/// A subscriber whose status is due to be asked at Apple, leased to one worker.
public struct DuePoll: Sendable, Hashable {
    /// The subscriber (stored key, `project:id`).
    public var appUserKey: String
    /// The app its row was written for.
    public var bundleID: String

    /// A due poll.
    public init(appUserKey: String, bundleID: String) {
        self.appUserKey = appUserKey
        self.bundleID = bundleID
    }
}
