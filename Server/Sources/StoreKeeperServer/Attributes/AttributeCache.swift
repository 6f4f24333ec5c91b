import StoreKeeperStorage
import Synchronization

/// Customers' attributes as last read, by the key they were asked for, each kept with the key of the customer
/// they belong to. An entry answers without reading while the change feed is live and neither key changed since
/// it was read (an attribute write, a merge: both publish the customer); past `maximumEntries` the cache starts
/// again.
final class AttributeCache: Sendable {
    struct Entry {
        var readAt: UInt64
        var customerKey: String
        var attributes: HeldAttributes
    }

    struct State {
        var entries: [String: Entry] = [:]
        var clock = ChangeClock()
    }

    let store: any AttributeStore
    let maximumEntries: Int
    let state = Mutex(State())

    init(store: any AttributeStore, changes: SubscriberChanges, maximumEntries: Int = 100_000) {
        self.store = store
        self.maximumEntries = maximumEntries
        let live = changes.observe { [weak self] event in self?.apply(event) }
        state.withLock { $0.clock.registered(live: live) }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            state.clock.apply(event)
            if state.clock.remembered > maximumEntries * 4 {
                state.clock.forget()
                state.entries = [:]
            }
        }
    }

    /// The attributes of the customer `key` names, with who set each.
    func attributes(_ key: String) async throws -> HeldAttributes {
        let (fresh, mark): (HeldAttributes?, UInt64) = state.withLock { state in
            guard let entry = state.entries[key],
                state.clock.holds(readAt: entry.readAt, keys: [key, entry.customerKey])
            else { return (nil, state.clock.counter) }
            return (entry.attributes, state.clock.counter)
        }
        if let fresh { return fresh }
        let (customer, attributes) = try await store.attributes(appUserKey: key)
        state.withLock { state in
            if state.entries.count >= maximumEntries { state.entries = [:] }
            state.entries[key] = Entry(readAt: mark, customerKey: customer, attributes: attributes)
        }
        return attributes
    }
}
