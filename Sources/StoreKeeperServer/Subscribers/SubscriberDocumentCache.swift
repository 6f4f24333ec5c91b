import Foundation
import StoreKeeperStorage
import Synchronization

/// Encoded `subscriber` objects, by the id they were asked for, each kept with the stored row it was computed
/// from and the instants between which the engine's answer for that row holds
/// (``SubscriptionEngine/nextChange(_:after:)``).
///
/// Two ways to use an entry:
/// - ``body(for:key:readAt:at:)``: after reading the row, when it is byte for byte the row the entry was computed from —
///   never stale, it only saves the engine and the encoder.
/// - ``fresh(_:at:)``: without reading the row, when no change of it has been published since it was
///   read, while ``SubscriberChanges`` is live (always with SQLite, whose only writer is this process; with
///   PostgreSQL while the listener hears every server's commits). Another server's commit reaches this one
///   within PostgreSQL's notification latency; this server's own writes are published before they return.
///
/// Bounded by bytes: past its budget the least recently used answers are forgotten, one at a time (each counted at
/// its encoded answer plus the stored row it keeps). The record of which subscribers changed when is bounded by
/// count: past `changeMemory` of them it starts again, and entries read before then are read again once.
final class SubscriberDocumentCache: Sendable {
    struct Entry {
        var snapshot: SubscriberSnapshot
        var readAt: UInt64
        var validFrom: Date
        var validUntil: Date?
        var body: [UInt8]
    }

    struct State {
        var entries: LRUCache<String, Entry>
        /// Counts published changes; an entry remembers its value when its row was read.
        var counter: UInt64 = 0
        /// The counter when each subscriber's row last changed.
        var changedAt: [String: UInt64] = [:]
        /// The counter when the change feed last became live; `nil` while it is not.
        var liveSince: UInt64?
        /// Whether a `live` or `interrupted` event has arrived (it then decides `liveSince`).
        var heardLiveness = false
    }

    let state: Mutex<State>
    let changeMemory: Int

    init(changes: SubscriberChanges, budget: Int = CacheBudget.standard.answers, changeMemory: Int = 1_000_000) {
        self.changeMemory = changeMemory
        state = Mutex(State(entries: LRUCache(budget: budget), liveSince: nil))
        let live = changes.observe { [weak self] event in self?.apply(event) }
        // Live when registered, unless a later liveness event already said otherwise.
        if live { state.withLock { if !$0.heardLiveness { $0.liveSince = 0 } } }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            state.counter += 1
            switch event {
            case .changed(let users):
                for user in users { state.changedAt[user] = state.counter }
                if state.changedAt.count > changeMemory {
                    // Forgetting when rows changed makes every entry read before now unusable without a read.
                    state.changedAt = [:]
                    state.liveSince = state.liveSince.map { _ in state.counter }
                }
            case .live:
                state.liveSince = state.counter
                state.heardLiveness = true
            case .interrupted:
                state.liveSince = nil
                state.heardLiveness = true
            }
        }
    }

    /// The counter now: take it before reading a row, and pass it to ``remember(_:for:key:readAt:from:until:)``.
    var readMark: UInt64 { state.withLock { $0.counter } }

    /// The encoded subscriber asked for as `key`, without reading the database, when nothing published since
    /// its row was read can have changed it.
    /// `key` is the project-qualified id asked for (``ProjectScope/key(_:)``), so an entry never answers for
    /// another project.
    func fresh(_ key: String, at instant: Date) -> [UInt8]? {
        state.withLock { state in
            guard let liveSince = state.liveSince, let entry = state.entries.value(for: key), entry.readAt >= liveSince,
                state.changedAt[entry.snapshot.storageKey, default: 0] <= entry.readAt,
                state.changedAt[key, default: 0] <= entry.readAt, Self.holds(entry, at: instant)
            else { return nil }
            return entry.body
        }
    }

    /// The encoded subscriber for this exact row at `instant`, when one is known; the entry then counts as read
    /// again at `readAt`.
    func body(for snapshot: SubscriberSnapshot, key: String, readAt: UInt64, at instant: Date) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries.value(for: key), entry.snapshot == snapshot, Self.holds(entry, at: instant)
            else { return nil }
            if entry.readAt < readAt { state.entries.update(key) { $0.readAt = readAt } }
            return entry.body
        }
    }

    static func holds(_ entry: Entry, at instant: Date) -> Bool {
        instant >= entry.validFrom && entry.validUntil.map { instant < $0 } ?? true
    }

    /// Remembers the encoded subscriber for the row read (after `readAt`) for `key`, valid in
    /// `[validFrom, validUntil)`.
    func remember(
        _ body: [UInt8], for snapshot: SubscriberSnapshot, key: String, readAt: UInt64, from validFrom: Date,
        until validUntil: Date?
    ) {
        let entry = Entry(snapshot: snapshot, readAt: readAt, validFrom: validFrom, validUntil: validUntil, body: body)
        state.withLock { $0.entries.set(entry, for: key, cost: Self.cost(entry, key)) }
    }

    /// What an entry costs: its answer, the stored row it keeps (to compare), and its keys.
    static func cost(_ entry: Entry, _ key: String) -> Int {
        entry.body.count + entry.snapshot.evidenceJSON.utf8.count + key.utf8.count * 2 + 128
    }

    /// Its size and hit rate so far.
    var usage: CacheUsage { state.withLock { $0.entries.usage } }
}
