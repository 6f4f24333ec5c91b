import Foundation
import StoreKeeperAPI
public import StoreKeeperStorage
import StoreKeeperWire
public import SubscriptionEngine

/// The server's ``ChangeAnnouncer``: evaluates the subscriber with the engine at the server's clock, finds what
/// changed since the last announcement (``ChangeDetector``) and writes each change as a ``WebhookEvent`` with the
/// subscriber document of that moment; and, from the same answer, when to ask Apple next (``PollSchedule``).
public struct WebhookAnnouncer: ChangeAnnouncer {
    /// The engine (the configured products and entitlements).
    public let engine: SubscriptionEngine
    /// When subscribers are asked about at Apple.
    public let pollSchedule: PollSchedule

    /// An announcer.
    /// - Parameters:
    ///   - engine: The engine the server answers with.
    ///   - pollSchedule: When subscribers are asked about at Apple.
    public init(engine: SubscriptionEngine, pollSchedule: PollSchedule = PollSchedule()) {
        self.engine = engine
        self.pollSchedule = pollSchedule
    }

    /// The events for one subscriber after a write or at a due instant.
    public func announce(_ change: SubscriberChange) throws -> Announcement {
        let state = engine.evaluate(change.evidence, at: change.now)
        let found = ChangeDetector.changes(from: change.announced, to: state, transferredIn: change.transferredIn)
        let due = announcementDue(state, next: engine.nextChange(change.evidence, after: change.now))
        let poll = pollSchedule.next(state, now: change.now, random: Double.random(in: 0..<1))
        guard change.listening, !found.changes.isEmpty else {
            return Announcement(announced: found.announced, events: [], dueAt: due, pollAt: poll)
        }
        let subscriber = Subscriber(
            appUserID: change.appUserID, aliases: change.aliases, firstSeen: change.firstSeen ?? change.now,
            state: state)
        let events = try found.changes.map { found in
            let event = webhookEvent(found, state: state, subscriber: subscriber, change: change)
            let body = try JSONWriter.exactJSON(event, capacity: 2_048) ?? Array(Self.encoder.encode(event))
            return OutboxEvent(id: event.id, type: event.type, body: String(decoding: body, as: UTF8.self))
        }
        return Announcement(announced: found.announced, events: events, dueAt: due, pollAt: poll)
    }

    /// When the clock next changes what is announced: the engine's next instant — except the end of an
    /// auto-renewing subscription's period, where a renewal is expected. Its expiry is announced only once the poll
    /// after the end (``PollSchedule/afterExpiry``, stretched by its jitter) has had a minute to find the renewal,
    /// so a renewal whose notification is late or lost is announced as a renewal, never first as an expiration.
    /// Whatever else changed meanwhile is announced then too.
    func announcementDue(_ state: CustomerState, next: Date?) -> Date? {
        guard let next,
            state.subscriptions.contains(where: {
                $0.status == .active && $0.willAutoRenew != false && $0.expiresAt == next
            })
        else { return next }
        return next.addingTimeInterval(pollSchedule.afterExpiry * (1 + pollSchedule.jitter) + 60)
    }

    /// How event bodies are written (the API's JSON) when ``JSONWriter`` cannot be sure to write them the same.
    static let encoder = APICoding.encoder()

    /// One change as the event delivered.
    func webhookEvent(_ found: StateChange, state: CustomerState, subscriber: Subscriber, change: SubscriberChange)
        -> WebhookEvent
    {
        let subscription = state.subscriptions.first { $0.originalTransactionID == found.originalTransactionID }
        let purchase = state.purchases.first { $0.transactionID == found.transactionID }
        return WebhookEvent(
            id: UUID().uuidString.lowercased(), type: found.kind.rawValue, createdAt: change.now,
            environment: subscription?.environment?.rawValue, app: change.bundleID, appUserID: change.appUserID,
            aliases: change.aliases, originalTransactionID: found.originalTransactionID,
            transactionID: found.transactionID, productID: found.productID,
            entitlements: state.grants.first { $0.id == found.transactionID && found.originalTransactionID == nil }
                .map { [$0.entitlement] } ?? engine.configuration.entitlements[found.productID] ?? [],
            periodType: subscription.map { Self.periodType($0.offer) },
            purchasedAt: subscription?.purchasedAt ?? purchase?.purchaseDate,
            expiresAt: subscription?.expiresAt ?? purchase?.expiresAt, price: subscription?.price,
            currency: subscription?.currency, storeTimestamp: found.storeTimestamp, cause: change.cause.rawValue,
            subscriber: subscriber, attributes: change.attributes)
    }

    /// The period type of a subscription's current offer.
    static func periodType(_ offer: Offer?) -> String {
        switch offer?.kind {
        case nil: "normal"
        case .freeTrial?: "trial"
        case .introPayAsYouGo?, .introPayUpFront?, .introductory?: "intro"
        case .promotional?: "promotional"
        case .offerCode?: "offer_code"
        case .winBack?: "win_back"
        }
    }
}
