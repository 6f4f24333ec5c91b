import StoreKeeperStorage

/// Records real-time retention exchanges with a shared commit: Apple waits at most 700 ms, and a commit per
/// request made the endpoint's p99 the database's queue. An exchange joins the batch being gathered; one batch at a
/// time is written in one transaction (``RetentionStore/recordRetention(_:)``), and each caller returns only once
/// its batch committed — so an answer is still never given before it is recorded. A failed batch fails each of
/// its callers (Apple then shows the default message).
actor RetentionRecorder {
    let store: any RetentionStore
    var waiting: [(RetentionExchange, CheckedContinuation<Void, any Error>)] = []
    var writing = false

    init(store: any RetentionStore) { self.store = store }

    /// Records `exchange`; returns when it is committed.
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
                try await store.recordRetention(batch.map(\.0))
                for (_, continuation) in batch { continuation.resume() }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}
