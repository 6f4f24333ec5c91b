public import Foundation
public import SubscriptionEngine

/// Turns a subscriber's new evidence into the events announced about it (the webhooks' outbox), inside the
/// write's transaction: the server's announcer runs the engine, finds the changes (``ChangeDetector``) and
/// writes each event's body. The store writes what it returns with the state change, or nothing at all.
public protocol ChangeAnnouncer: Sendable {
    /// What to announce about one subscriber after a write.
    /// - Parameter change: The subscriber, what was announced before and its evidence now.
    /// - Returns: What is announced now, the events, and when the clock may change the answer next.
    func announce(_ change: SubscriberChange) throws -> Announcement
}

/// One subscriber as a write leaves it, for a ``ChangeAnnouncer``.
public struct SubscriberChange: Sendable {
    /// The subscriber's id (as the app knows it, without its project).
    public var appUserID: String
    /// The project's id.
    public var projectID: String
    /// The app whose write this is.
    public var bundleID: String
    /// The subscriber's aliases, sorted.
    public var aliases: [String]
    /// When the subscriber was first stored (`nil`: by this write).
    public var firstSeen: Date?
    /// What was announced before (`nil`: nothing yet).
    public var announced: AnnouncedState?
    /// The subscriber's evidence after the write.
    public var evidence: EvidenceSet
    /// Subscriptions that moved to this subscriber in this write.
    public var transferredIn: Set<String>
    /// What caused the write.
    public var cause: EventCause
    /// The notification that caused it, if one did.
    public var causeID: String?
    /// Whether anybody listens (the project has a webhook endpoint): without listeners only the announced
    /// state is kept, and no event body need be written.
    public var listening: Bool
    /// The server's clock.
    public var now: Date
    /// The subscriber's attributes (read with the announced state).
    public var attributes: [String: String]

    /// A change.
    public init(
        appUserID: String, projectID: String, bundleID: String, aliases: [String], firstSeen: Date?,
        announced: AnnouncedState?, evidence: EvidenceSet, transferredIn: Set<String>, cause: EventCause,
        causeID: String?, listening: Bool, now: Date, attributes: [String: String] = [:]
    ) {
        self.attributes = attributes
        self.appUserID = appUserID
        self.projectID = projectID
        self.bundleID = bundleID
        self.aliases = aliases
        self.firstSeen = firstSeen
        self.announced = announced
        self.evidence = evidence
        self.transferredIn = transferredIn
        self.cause = cause
        self.causeID = causeID
        self.listening = listening
        self.now = now
    }
}

/// What a ``ChangeAnnouncer`` decided for one subscriber.
public struct Announcement: Sendable {
    /// What is announced from now on.
    public var announced: AnnouncedState
    /// The events, in order.
    public var events: [OutboxEvent]
    /// When the clock alone may change the subscriber's answer next (`nil`: never).
    public var dueAt: Date?
    /// When to ask Apple about the subscriber next (`nil`: never).
    public var pollAt: Date?

    /// An announcement.
    public init(announced: AnnouncedState, events: [OutboxEvent], dueAt: Date?, pollAt: Date? = nil) {
        self.announced = announced
        self.events = events
        self.dueAt = dueAt
        self.pollAt = pollAt
    }
}

/// One event in the outbox: delivered to every webhook endpoint of its project that wants its type.
public struct OutboxEvent: Sendable, Hashable {
    /// Its id (receivers deduplicate by it).
    public var id: String
    /// Its type (``SubscriptionEngine/ChangeKind`` raw value).
    public var type: String
    /// The JSON body delivered.
    public var body: String

    /// An event.
    public init(id: String, type: String, body: String) {
        self.id = id
        self.type = type
        self.body = body
    }
}
