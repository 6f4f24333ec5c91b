/// An async lock: one holder at a time, waiters resumed in arrival order. SQLite allows one writer per
/// connection, and actor reentrancy alone would let a second transaction begin while the first awaits.
public actor AsyncMutex {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Makes an unlocked mutex.
    public init() {}

    /// Runs `body` while holding the lock.
    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
