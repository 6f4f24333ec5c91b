import StoreKeeperStorage

/// What a cache fed by a ``SubscriberChanges`` feed needs to trust an entry without reading: a count of the
/// events heard, when each key last changed (in that count), and since when the feed is live. An entry read at
/// count `n` holds while the feed has been live since before `n` and none of its keys changed after `n`.
struct ChangeClock: Sendable {
    /// Events heard so far; take it before a read and keep it with what was read.
    private(set) var counter: UInt64 = 0
    /// The count when each key last changed.
    private var changedAt: [String: UInt64] = [:]
    /// The count when the feed last became live; `nil` while it is not.
    private(set) var liveSince: UInt64?
    /// Whether a `live` or `interrupted` event has arrived (it then decides `liveSince`).
    private var heardLiveness = false

    /// The feed was live when the cache registered (unless an event since said otherwise).
    mutating func registered(live: Bool) {
        if live, !heardLiveness { liveSince = 0 }
    }

    /// Counts `event`.
    /// - Returns: The keys it says changed.
    @discardableResult
    mutating func apply(_ event: SubscriberChanges.Event) -> [String] {
        counter += 1
        switch event {
        case .changed(let keys):
            for key in keys { changedAt[key] = counter }
            return keys
        case .live:
            liveSince = counter
            heardLiveness = true
        case .interrupted:
            liveSince = nil
            heardLiveness = true
        }
        return []
    }

    /// Whether what was read at `readAt` about `keys` still holds.
    func holds(readAt: UInt64, keys: [String]) -> Bool {
        guard let liveSince, readAt >= liveSince else { return false }
        return keys.allSatisfy { changedAt[$0, default: 0] <= readAt }
    }

    /// How many keys it remembers.
    var remembered: Int { changedAt.count }

    /// Forgets when keys changed (to bound its memory): everything read before now must be read again.
    mutating func forget() {
        changedAt = [:]
        liveSince = liveSince.map { _ in counter }
    }
}
