public import Foundation
public import Logging
public import ServiceLifecycle
public import StoreKeeperStorage

/// The retention setting (`rawEvidenceRetentionDays`): every `interval`, drops the raw text of evidence received
/// more than `days` days ago, a batch at a time, receipts excepted (``Store/purgeRawEvidence(receivedBefore:limit:)``).
/// What was decided from the evidence — subscribers' state, history, events — stays.
public struct RawEvidenceRetention: Service {
    let store: any EvidenceStore
    let days: Int
    let interval: Duration
    let batch: Int
    let now: @Sendable () -> Date
    let logger: Logger

    /// A retention worker.
    /// - Parameters:
    ///   - store: The store.
    ///   - days: Keep raw evidence this many days (at least 1).
    ///   - interval: How often to look for older evidence.
    ///   - batch: How many rows one transaction empties.
    ///   - now: The server's clock.
    ///   - logger: Where a failed round is reported (the next round tries again).
    public init(
        store: any EvidenceStore, days: Int, interval: Duration = .seconds(3_600), batch: Int = 1_000,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.days = max(1, days)
        self.interval = interval
        self.batch = batch
        self.now = now
        self.logger = logger
    }

    /// The instant before which evidence is dropped, at `now`.
    public func cutoff(at now: Date) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }

    /// Runs until graceful shutdown.
    public func run() async throws {
        await WorkLoop(interval: interval, logger: logger, failure: "dropping old raw evidence failed").run {
            let dropped = try await store.purgeRawEvidence(receivedBefore: cutoff(at: now()), limit: batch)
            if dropped > 0 { logger.info("raw evidence dropped", metadata: ["rows": "\(dropped)", "days": "\(days)"]) }
            return dropped == batch
        }
    }
}
