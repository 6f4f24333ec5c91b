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
        /// Which subscribers changed when, and whether the feed is live.
        var clock = ChangeClock()
    }

    let state: Mutex<State>
    let changeMemory: Int

    init(changes: SubscriberChanges, budget: Int = CacheBudget.standard.answers, changeMemory: Int = 1_000_000) {
        self.changeMemory = changeMemory
        state = Mutex(State(entries: LRUCache(budget: budget)))
        let live = changes.observe { [weak self] event in self?.apply(event) }
        // Live when registered, unless a later liveness event already said otherwise.
        state.withLock { $0.clock.registered(live: live) }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            state.clock.apply(event)
            // Forgetting when rows changed makes every entry read before now unusable without a read.
            if state.clock.remembered > changeMemory { state.clock.forget() }
        }
    }

    /// The counter now: take it before reading a row, and pass it to ``remember(_:for:key:readAt:from:until:)``.
    var readMark: UInt64 { state.withLock { $0.clock.counter } }

    /// The encoded subscriber asked for as `key`, without reading the database, when nothing published since
    /// its row was read can have changed it.
    /// `key` is the project-qualified id asked for (``ProjectScope/key(_:)``), so an entry never answers for
    /// another project.
    func fresh(_ key: String, at instant: Date) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries.value(for: key),
                state.clock.holds(readAt: entry.readAt, keys: [entry.snapshot.storageKey, key]),
                Self.holds(entry, at: instant)
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
