import PostgresNIO
import StoreKeeperStorage
import Synchronization

/// Ends a statement on a pooled connection as ``DatabaseUnavailable`` the moment that connection closes.
///
/// PostgresNIO 1.33 loses a statement written to a connection whose channel has just closed: the write goes nowhere
/// and the statement's promise is never completed, so the unit of work waited for ever. A request then never
/// answered, and the server's shutdown waited for that request (seen after a PostgreSQL outage: an answer that
/// never came, and `serve` taking 53 s to stop). Checking `isClosed` before each statement narrows the window but
/// cannot close it. Here each statement runs in a task of its own, and the caller is resumed by whichever comes
/// first: the statement's end or the connection's close. A statement abandoned this way waits on a connection that
/// is gone; it holds nothing the pool needs.
///
/// One close callback is registered per connection, not per unit of work (a future's callbacks cannot be removed,
/// and a long-lived connection would collect them); it fails whatever is in flight on that connection.
final class ConnectionWatch: Sendable {
    /// What waits on one connection: each unit of work's way to fail, by its number.
    private struct Watched {
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private struct State {
        var connections: [ObjectIdentifier: Watched] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    /// A watch with nothing in flight.
    init() {}

    /// Runs `work` on `connection`, throwing ``DatabaseUnavailable`` as soon as the connection closes first.
    func run<T: Sendable>(on connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        let key = ObjectIdentifier(connection)
        let outcome = Outcome<T>()
        let task = Task { outcome.finish(await Result(catching: work)) }
        let (number, isNew) = state.withLock { state -> (Int, Bool) in
            state.next &+= 1
            let number = state.next
            let isNew = state.connections[key] == nil
            state.connections[key, default: Watched()].waiting[number] = {
                outcome.finish(.failure(DatabaseUnavailable("the connection was lost")))
            }
            return (number, isNew)
        }
        if isNew {
            connection.closeFuture.whenComplete { [weak self] _ in self?.closed(key) }
        }
        // A connection that closed before its callback was registered is failed by that callback, which runs at
        // once on a completed future; one closed since is failed the same way.
        if connection.isClosed { closed(key) }
        defer { release(key, number) }
        return try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            task.cancel()
        }
    }

    /// The connection closed: everything in flight on it fails.
    private func closed(_ key: ObjectIdentifier) {
        let failures = state.withLock { state -> [@Sendable () -> Void] in
            state.connections.removeValue(forKey: key).map { Array($0.waiting.values) } ?? []
        }
        for fail in failures { fail() }
    }

    /// A unit of work ended: its connection is watched for it no longer.
    private func release(_ key: ObjectIdentifier, _ number: Int) {
        state.withLock { state in
            state.connections[key]?.waiting[number] = nil
        }
    }

    /// Whether anything is in flight on any watched connection (for tests).
    var isIdle: Bool { state.withLock { $0.connections.values.allSatisfy(\.waiting.isEmpty) } }
}

/// The outcome of one unit of work, delivered once: by the work, or by its connection closing.
final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = Mutex(State())

    /// Delivers `result` unless an outcome was delivered already.
    func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// The outcome, once delivered.
    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<T, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
