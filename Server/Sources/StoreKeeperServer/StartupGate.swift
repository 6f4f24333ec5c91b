import Synchronization

/// Holds the background services back until the HTTP server listens: a server that cannot start (its port is
/// taken) then fails with that one error, before any worker has called Apple or logged anything.
public final class StartupGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed gate.
    public init() {}

    /// Whether the gate is open (the background services run).
    public var isOpen: Bool { state.withLock { $0.open } }

    /// Opens the gate: every waiter goes on, and later waits return at once.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until the gate is open (or returns at once when it is).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
