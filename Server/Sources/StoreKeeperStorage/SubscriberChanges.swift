import Synchronization

/// Tells readers that subscribers' stored rows changed, so answers derived from them can be dropped.
///
/// The store publishes the users each committed write changed, right after the commit and before the write
/// returns. Where other processes can write the same database (PostgreSQL), a listener also publishes their
/// changes, and says when it starts (`live`) and stops (`interrupted`) hearing them: between those, a reader
/// may trust what it read; otherwise it must read again.
public final class SubscriberChanges: Sendable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// These subscribers' rows changed (committed).
        case changed([String])
        /// From now on every change by any writer is published.
        case live
        /// Changes by other writers may go unpublished until the next `live`.
        case interrupted
    }

    struct State {
        var observers: [@Sendable (Event) -> Void] = []
        var live: Bool
    }

    let state: Mutex<State>
    /// Whether every change is published from the start (one process owns the database, as with SQLite).
    public let liveFromStart: Bool

    /// Makes a feed.
    /// - Parameter liveFromStart: `true` when this process is the database's only writer.
    public init(liveFromStart: Bool) {
        self.liveFromStart = liveFromStart
        state = Mutex(State(live: liveFromStart))
    }

    /// Calls `handler` with every later event (on the publisher's task; keep it quick).
    /// - Returns: Whether the feed is live now (events before this call are not replayed).
    @discardableResult
    public func observe(_ handler: @escaping @Sendable (Event) -> Void) -> Bool {
        state.withLock { state in
            state.observers.append(handler)
            return state.live
        }
    }

    /// Publishes an event to every observer.
    public func publish(_ event: Event) {
        if case .changed(let users) = event, users.isEmpty { return }
        let observers = state.withLock { state in
            switch event {
            case .live: state.live = true
            case .interrupted: state.live = false
            case .changed: break
            }
            return state.observers
        }
        for observer in observers { observer(event) }
    }
}
