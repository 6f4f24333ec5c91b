import Foundation
import StoreKeeperStorage

/// Records real-time retention exchanges with a shared commit: Apple waits at most 700 ms, and a commit per
/// request made the endpoint's p99 the database's queue. An exchange joins the batch being gathered; one batch at a
/// time is written in one transaction (``RetentionStore/recordRetention(_:)``), and each caller returns only once
/// its batch committed — so an answer is still never given before it is recorded. A failed batch fails each of
/// its callers (Apple then shows the default message). A request some replica admitted before is a replay: its
/// caller is thrown ``Replayed`` and nothing of it is written.
actor RetentionRecorder {
    let store: any RetentionStore
    let now: @Sendable () -> Date
    var waiting: [(RetentionExchange, CheckedContinuation<Void, any Error>)] = []
    var writing = false

    /// A request whose identifier was admitted before, by this replica or another.
    struct Replayed: Error {}

    init(store: any RetentionStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Records `exchange`; returns when it is committed.
    /// - Throws: ``Replayed`` when its request was admitted before; the store's error when the batch failed.
    func record(_ exchange: RetentionExchange) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            waiting.append((exchange, continuation))
            if !writing {
                writing = true
                Task { await self.drain() }
            }
        }
    }

    /// Writes what waits, a batch at a time, until nothing does.
    func drain() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            do {
                // Identifiers are remembered for twice the window a request's signedDate must fall in: an older
                // request is refused by its date.
                let replayed = try await store.recordRetention(
                    batch.map(\.0), forgetBefore: now().addingTimeInterval(-2 * RetentionReplayGuard.window))
                for (position, (_, continuation)) in batch.enumerated() {
                    if replayed.contains(position) {
                        continuation.resume(throwing: Replayed())
                    } else {
                        continuation.resume()
                    }
                }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}
