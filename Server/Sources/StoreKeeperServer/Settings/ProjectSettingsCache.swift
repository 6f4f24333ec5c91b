import StoreKeeperStorage
import Synchronization

/// What a feature makes of a project's settings (its offerings, ready to answer), kept in memory per project and
/// made again only when the project's settings change.
///
/// An entry answers without reading the database while ``SettingStore/settingChanges`` is live (always with
/// SQLite, whose only writer is this process; with PostgreSQL while the listener hears every server's commits)
/// and no change of its project has been published since it was read (``ChangeClock``): a change made through
/// any replica reaches this one within PostgreSQL's notification latency, and this server's own changes are
/// published before the write returns. While the feed is not live every call reads the settings again.
final class ProjectSettingsCache<Value: Sendable>: Sendable {
    struct Entry {
        var readAt: UInt64
        var value: Value
    }

    struct State {
        var entries: [String: Entry] = [:]
        var clock = ChangeClock()
    }

    let store: any SettingStore
    let derive: @Sendable ([ProjectSetting]) throws -> Value
    let state = Mutex(State())

    /// A cache of `derive` over each project's settings in `store`.
    init(store: any SettingStore, derive: @escaping @Sendable ([ProjectSetting]) throws -> Value) {
        self.store = store
        self.derive = derive
        let live = store.settingChanges.observe { [weak self] event in self?.apply(event) }
        state.withLock { $0.clock.registered(live: live) }
    }

    func apply(_ event: SubscriberChanges.Event) {
        state.withLock { state in
            for project in state.clock.apply(event) { state.entries[project] = nil }
        }
    }

    /// What `derive` makes of the project's settings: from memory when nothing can have changed them since they
    /// were read, else read again (and remembered).
    func value(projectID: String) async throws -> Value {
        let (fresh, mark): (Value?, UInt64) = state.withLock { state in
            guard let entry = state.entries[projectID], state.clock.holds(readAt: entry.readAt, keys: [projectID])
            else { return (nil, state.clock.counter) }
            return (entry.value, state.clock.counter)
        }
        if let fresh { return fresh }
        let value = try derive(try await store.projectSettings(projectID: projectID))
        // Read at `mark`: a change published while it was read makes the entry untrusted (``ChangeClock/holds``).
        state.withLock { $0.entries[projectID] = Entry(readAt: mark, value: value) }
        return value
    }
}
