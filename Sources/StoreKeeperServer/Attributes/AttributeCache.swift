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
        var attributes: [String: String]
    }

    struct State {
        var entries: [String: Entry] = [:]
        var counter: UInt64 = 0
        var changedAt: [String: UInt64] = [:]
        var liveSince: UInt64?
        var heardLiveness = false
    }

    let store: any AttributeStore
    let maximumEntries: Int
    let state = Mutex(State())

    init(store: any AttributeStore & EvidenceStore, maximumEntries: Int = 100_000) {
        self.store = store
        self.maximumEntries = maximumEntries
        let live = store.changes.observe { [weak self] event in self?.apply(event) }
        if live { state.withLock { if !$0.heardLiveness { $0.liveSince = 0 } } }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            state.counter += 1
            switch event {
            case .changed(let keys):
                for key in keys { state.changedAt[key] = state.counter }
                if state.changedAt.count > maximumEntries * 4 {
                    state.changedAt = [:]
                    state.entries = [:]
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

    /// The attributes of the customer `key` names.
    func attributes(_ key: String) async throws -> [String: String] {
        let (fresh, mark): ([String: String]?, UInt64) = state.withLock { state in
            guard let liveSince = state.liveSince, let entry = state.entries[key], entry.readAt >= liveSince,
                state.changedAt[key, default: 0] <= entry.readAt,
                state.changedAt[entry.customerKey, default: 0] <= entry.readAt
            else { return (nil, state.counter) }
            return (entry.attributes, state.counter)
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
