public import Foundation
public import Logging
public import NIOCore
public import ServiceLifecycle
public import StoreKeeperStorage
import Synchronization

/// Delivers the outbox: takes due deliveries under a lease, posts each event signed with its endpoint's secret,
/// and records the round's attempts together — delivered on 2xx, otherwise tried again on the retry schedule and then `failed`.
/// Several processes on one database each run one: a lease keeps a delivery with one worker until it ends, and a
/// delivery whose worker died is taken again after it. At least once: receivers deduplicate by the event id.
public struct WebhookDispatcher: Service {
    /// How the dispatcher works.
    public struct Options: Sendable {
        /// The retry schedule.
        public var schedule = WebhookRetrySchedule.standard
        /// How long a worker holds a delivery it took (longer than the request timeout).
        public var lease: TimeInterval = 60
        /// How long a round's deliveries may take, together.
        public var requestTimeout: TimeAmount = .seconds(10)
        /// The most deliveries taken at once (and sent concurrently).
        public var batch = 128
        /// How long to wait after a round that took less than a full batch: deliveries then leave in batches (one
        /// lease and one record per batch, not per event) at most this late.
        public var idle: Duration = .milliseconds(200)

        /// The defaults.
        public init() {}
    }

    let store: any Store
    let client: WebhookHTTPClient
    let options: Options
    let now: @Sendable () -> Date
    let logger: Logger

    /// A dispatcher.
    /// - Parameters:
    ///   - store: The outbox.
    ///   - client: Posts the deliveries (shut down when ``run()`` ends).
    ///   - options: Schedule, lease, timeouts.
    ///   - now: The server's clock.
    ///   - logger: Where failed attempts are reported (never with a secret).
    public init(
        store: any Store, client: WebhookHTTPClient = WebhookHTTPClient(), options: Options = Options(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.client = client
        self.options = options
        self.now = now
        self.logger = logger
    }

    /// Delivers until graceful shutdown; a batch in flight finishes first.
    public func run() async throws {
        let measured = MeasureClock()
        await WorkLoop(interval: options.idle, logger: logger, failure: "webhook delivery round failed").run {
            if measured.due(every: .seconds(5)) { ServerMetrics.outboxDepth(try await store.pendingDeliveryCount()) }
            return try await deliverDue() == options.batch
        }
        await client.shutdown()
    }

    /// Takes the due deliveries and sends them, concurrently (``lanes(_:width:)``).
    /// - Returns: How many were taken.
    public func deliverDue() async throws -> Int {
        let start = now()
        let leased = try await store.leaseDeliveries(
            now: start, leaseUntil: start.addingTimeInterval(options.lease), limit: options.batch)
        let deadline = NIODeadline.now() + options.requestTimeout
        let urls = leased.map { WebhookURL($0.url) }
        let origins = zip(leased, urls).map { delivery, url in url?.origin ?? delivery.url }
        let attempts = await withTaskGroup(of: [DeliveryAttempt].self) { group in
            for lane in Self.lanes(origins, width: client.configuration.connectionsPerOrigin) {
                group.addTask {
                    var attempts: [DeliveryAttempt] = []
                    var connection: WebhookHTTPClient.Connection?
                    for index in lane {
                        attempts.append(
                            await deliver(leased[index], to: urls[index], over: &connection, deadline: deadline))
                    }
                    client.release(connection)
                    return attempts
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        do {
            try await store.recordAttempts(attempts, now: now())
        } catch {
            logger.error(
                "webhook attempts could not be recorded; they are tried again after their lease",
                metadata: ["deliveries": "\(attempts.count)", "reason": "\(error)"])
        }
        return leased.count
    }

    /// A round's deliveries (by their origins' positions) split into lanes that each send one after another on one
    /// connection: at most `width` lanes to one origin (``WebhookURL/origin``: scheme, host and port).
    /// - Returns: Each lane's positions, in order.
    static func lanes(_ origins: [String], width: Int) -> [[Int]] {
        var byOrigin: [String: [Int]] = [:]
        var order: [String] = []
        for (index, origin) in origins.enumerated() {
            if byOrigin[origin] == nil { order.append(origin) }
            byOrigin[origin, default: []].append(index)
        }
        return order.flatMap { origin in
            let indices = byOrigin[origin] ?? []
            let width = max(1, min(width, indices.count))
            return (0..<width).map { lane in stride(from: lane, to: indices.count, by: width).map { indices[$0] } }
        }
    }

    /// Sends one delivery over its lane's connection, by `deadline` (the round's: a delivery that waited for its
    /// lane has what is left).
    /// - Returns: What came of it, to record with the round's others.
    func deliver(
        _ delivery: LeasedDelivery, to url: WebhookURL?, over connection: inout WebhookHTTPClient.Connection?,
        deadline: NIODeadline
    ) async -> DeliveryAttempt {
        let sentAt = now()
        let body = ByteBuffer(string: delivery.body)
        let signature = body.withUnsafeReadableBytes { bytes in
            WebhookSignature.value(
                secret: delivery.secret, timestamp: Int64(sentAt.timeIntervalSince1970), body: bytes)
        }
        let result: String
        var detail: String?
        let delivered: Bool
        if let url {
            do {
                let status = try await client.post(
                    url,
                    headers: [
                        ("Content-Type", "application/json"), ("User-Agent", "StoreKeeper-Webhooks/1"),
                        ("StoreKeeper-Event-Id", delivery.eventID), (WebhookSignature.header, signature),
                    ], body: body, over: &connection, deadline: deadline)
                result = "HTTP \(status)"
                delivered = (200..<300).contains(status)
            } catch {
                result = "not sent: \((error as? WebhookHTTPError)?.deliveryLog ?? "no HTTP answer")"
                detail = "\(error)"
                delivered = false
            }
        } else {
            result = "not sent: the URL is not an absolute http or https URL with a host"
            delivered = false
        }
        let attempts = delivery.attempts + 1
        let outcome: DeliveryOutcome
        if delivered {
            outcome = .delivered
        } else if let next = options.schedule.retry(
            afterAttempts: attempts, now: now(), jitter: Double.random(in: 0..<1))
        {
            outcome = .retry(at: next)
        } else {
            outcome = .failed
        }
        ServerMetrics.webhookAttempt(
            result: delivered ? "delivered" : outcome == .failed ? "failed" : "retry")
        if !delivered {
            logger.warning(
                "webhook delivery failed",
                metadata: [
                    "delivery_id": "\(delivery.id)", "event_id": "\(delivery.eventID)",
                    "result": "\(detail.map { "not sent: \($0)" } ?? result)",
                    "attempts": "\(attempts)", "outcome": "\(outcome == .failed ? "failed" : "will retry")",
                ])
        }
        return DeliveryAttempt(deliveryID: delivery.id, outcome: outcome, result: result)
    }
}

/// When a periodic measurement is next due.
final class MeasureClock: Sendable {
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    /// Whether `period` has passed since the last time this answered true (true the first time).
    func due(every period: Duration) -> Bool {
        last.withLock { last in
            let now = ContinuousClock.now
            guard last.map({ now - $0 >= period }) ?? true else { return false }
            last = now
            return true
        }
    }
}
