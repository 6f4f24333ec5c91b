import Logging
import ServiceLifecycle
import StoreKeeperStorage

/// Deletes the metric rollup rows writes brought back to 0 (``RollupStore/sweepRollups(limit:)``), a batch at a time
/// every `interval`: a renewal moves the rows saying where a subscription ends to a later day, and without this the
/// rows it leaves at 0 would grow the database with every renewal while answering nothing.
struct RollupSweep: Service {
    let store: any RollupStore
    let interval: Duration
    let batch: Int
    let logger: Logger

    /// A sweeper; `interval` defaults to an hour, `batch` rows per transaction.
    init(store: any RollupStore, interval: Duration = .seconds(3_600), batch: Int = 1_000, logger: Logger) {
        self.store = store
        self.interval = interval
        self.batch = max(1, batch)
        self.logger = logger
    }

    /// Runs until graceful shutdown; nothing without rollups. The first round waits (at most ten minutes), so a
    /// server starting up answers its first queries without a sweep beside them.
    func run() async throws {
        guard store.keepsRollups else { return }
        let loop = WorkLoop(
            interval: interval, logger: logger, failure: "sweeping empty metric rollup rows failed",
            firstRound: .seconds(600))
        await loop.run {
            try await store.sweepRollups(limit: batch) == batch
        }
    }
}
