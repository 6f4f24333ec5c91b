public import Foundation
public import Logging
public import ServiceLifecycle
public import StoreKeeperStorage

/// Announces the changes the clock makes — a period that ends without a renewal, a grace period that runs out —
/// when they happen, not when the next evidence arrives: every `interval` it asks the store to evaluate the
/// subscribers whose due instant has passed (``WebhookStore/announceDue(now:limit:)``).
public struct ClockAnnouncer: Service {
    let store: any EvidenceStore
    let interval: Duration
    let batch: Int
    let now: @Sendable () -> Date
    let logger: Logger

    /// A clock announcer.
    /// - Parameters:
    ///   - store: The store (with its announcer).
    ///   - interval: How often to look for due subscribers.
    ///   - batch: How many subscribers one transaction takes.
    ///   - now: The server's clock.
    ///   - logger: Where a failed round is reported (the next round tries again).
    public init(
        store: any EvidenceStore, interval: Duration = .seconds(1), batch: Int = 200,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.interval = interval
        self.batch = batch
        self.now = now
        self.logger = logger
    }

    /// Runs until graceful shutdown.
    public func run() async throws {
        await WorkLoop(interval: interval, logger: logger, failure: "announcing what the clock changed failed").run {
            try await store.announceDue(now: now(), limit: batch) == batch
        }
    }
}
