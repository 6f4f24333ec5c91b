import Foundation
import HeapModule

/// The simulator's subscriptions by original transaction id, with the queue of what falls due kept beside them:
/// every write reschedules its subscription, so catching up with the clock pops only what is due — it never scans
/// every subscription (which made each request cost as much as the whole world).
struct SubscriptionTable: Sendable {
    private(set) var byID: [String: SimulatedSubscription] = [:]
    /// Each subscription's one live entry in ``queue``; an entry that disagrees is stale and skipped.
    private var scheduled: [String: Date] = [:]
    private var queue = Heap<DueEvent>()

    init() {}

    /// The table of `subscriptions` (the last of a repeated id wins), each scheduled.
    init(_ subscriptions: [SimulatedSubscription]) {
        for subscription in subscriptions { self[subscription.originalTransactionID] = subscription }
    }

    /// A subscription; setting one reschedules it.
    subscript(id: String) -> SimulatedSubscription? {
        get { byID[id] }
        set {
            byID[id] = newValue
            schedule(id)
        }
    }

    /// Every original transaction id.
    var keys: Dictionary<String, SimulatedSubscription>.Keys { byID.keys }
    /// Every subscription.
    var values: Dictionary<String, SimulatedSubscription>.Values { byID.values }

    /// When `subscription` next needs the clock's attention: its period's end while active, the end of grace or
    /// of billing retry while failing; never once expired or revoked.
    static func dueDate(_ subscription: SimulatedSubscription) -> Date? {
        switch subscription.status {
        case .active: return subscription.periodEnd
        case .billingGracePeriod:
            return [subscription.graceEndsAt, subscription.retryEndsAt].compactMap { $0 }.min()
        case .billingRetry: return subscription.retryEndsAt
        case .expired, .revoked: return nil
        }
    }

    /// Queues `id` at its due date, unless it is queued there already.
    mutating func schedule(_ id: String) {
        let due = byID[id].flatMap(Self.dueDate)
        guard scheduled[id] != due else { return }
        scheduled[id] = due
        if let due { queue.insert(DueEvent(due: due, originalTransactionID: id)) }
    }

    /// The earliest event due by `now`, taken off the queue (its subscription is queued again by the write that
    /// handles it, or by ``schedule(_:)``).
    mutating func popDue(by now: Date) -> DueEvent? {
        while let top = queue.min, top.due <= now {
            queue.removeMin()
            guard scheduled[top.originalTransactionID] == top.due else { continue }
            scheduled[top.originalTransactionID] = nil
            return top
        }
        return nil
    }
}
