public import Foundation
public import Logging
public import NIOCore
public import ServiceLifecycle
public import StoreKeeperStorage
import Synchronization

/// Delivers the outbox: takes due deliveries under a lease, posts each event signed with its endpoint's secret,
/// and records attempts as they end (together, between leases, at least every ``Options/idle``) — delivered on 2xx, otherwise tried again on the retry schedule
/// and then `failed`. Several processes on one database each run one: a lease keeps a delivery with one worker
/// until it ends, and a delivery whose worker died is taken again after it. At least once: receivers deduplicate
/// by the event id.
///
/// A slow or dead receiver slows only itself. At most ``Options/perEndpoint`` deliveries of one endpoint are
/// leased at once; each origin's deliveries go out on at most `connectionsPerOrigin` lanes of their own
/// (``DeliveryQueues``); each delivery has its own deadline; and when a receiver gives no answer, the rest of its
/// queue is postponed (no attempt counted) instead of waiting in line. Nothing waits for a round: a lane that ends
/// makes room, and the next lease follows at once.
public struct WebhookDispatcher: Service {
    /// How the dispatcher works.
    public struct Options: Sendable {
        /// The retry schedule.
        public var schedule = WebhookRetrySchedule.standard
        /// How long a worker holds a delivery it took (longer than the request timeout).
        public var lease: TimeInterval = 60
        /// How long one delivery may wait for its receiver's answer.
        public var requestTimeout: TimeAmount = .seconds(10)
        /// The most deliveries taken by one lease.
        public var batch = 256
        /// The most deliveries of one endpoint leased at once (by every worker together).
        public var perEndpoint = 128
        /// The most deliveries this worker holds, queued or being sent.
        public var maximumHeld = 4_096
        /// How long to wait, when nothing ended, before looking for due deliveries again: a delivery leaves at
        /// most this late after its event.
        public var idle: Duration = .milliseconds(200)

        /// The defaults.
        public init() {}
    }

    let store: any WebhookStore
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
        store: any WebhookStore, client: WebhookHTTPClient = WebhookHTTPClient(), options: Options = Options(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.client = client
        self.options = options
        self.now = now
        self.logger = logger
    }

    /// Delivers until graceful shutdown or cancellation; deliveries being sent finish first (each by its deadline).
    public func run() async throws {
        let queues = DeliveryQueues(width: client.configuration.connectionsPerOrigin)
        let measured = MeasureClock()
        await withTaskGroup(of: Bool.self) { group in
            var waiting = false
            var failures = WorkLoop.Failures()
            while !Task.isShuttingDownGracefully, !Task.isCancelled {
                await record(queues)
                var more = false
                do {
                    if measured.due(every: .seconds(5)) {
                        ServerMetrics.outboxDepth(try await store.pendingDeliveryCount())
                    }
                    let room = min(options.batch, options.maximumHeld - queues.held)
                    if room > 0 {
                        let taken = try await take(room, into: queues) { origin in
                            group.addTask {
                                await lane(origin, queues: queues)
                                return false
                            }
                        }
                        more = taken == room
                    }
                    failures.succeeded()
                } catch {
                    if Task.isCancelled { break }
                    failures.failed(error, logger: logger, message: "webhook deliveries could not be leased")
                }
                if more { continue }
                if !waiting {
                    waiting = true
                    let pause = failures.pause(interval: options.idle)
                    group.addTask {
                        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
                        return true
                    }
                }
                // A lane that ended made room; the pause that ended records what lanes still sending finished.
                if let pause = await group.next(), pause { waiting = false }
            }
            await group.waitForAll()
        }
        await record(queues)
        await client.shutdown()
    }

    /// Leases up to `limit` due deliveries and queues them, starting the lanes they need.
    /// - Returns: How many were taken.
    func take(_ limit: Int, into queues: DeliveryQueues, start: (String) -> Void) async throws -> Int {
        let leasedAt = ContinuousClock.now
        let instant = now()
        let leased = try await store.leaseDeliveries(
            now: instant, leaseUntil: instant.addingTimeInterval(options.lease), limit: limit,
            perEndpoint: options.perEndpoint)
        for origin in queues.add(leased, leaseEnds: leasedAt + .seconds(options.lease)) { start(origin) }
        return leased.count
    }

    /// One lane: sends `origin`'s queued deliveries one after another on one connection until the queue is empty,
    /// handing each attempt to be recorded as it ends. A delivery is sent only while its answer's deadline leaves a
    /// quarter of its lease to record it before another worker may take it again; otherwise it is postponed, and
    /// so is the rest of the queue when the receiver gives no answer.
    func lane(_ origin: String, queues: DeliveryQueues) async {
        let timeout = Duration.nanoseconds(options.requestTimeout.nanoseconds)
        let margin = Duration.seconds(options.lease / 4)
        var connection: WebhookHTTPClient.Connection?
        while let queued = queues.next(for: origin) {
            if ContinuousClock.now + timeout + margin > queued.leaseEnds {
                queues.finish([.init(deliveryID: queued.delivery.id, outcome: .postponed(until: now()), result: "")])
                continue
            }
            let (attempt, answered) = await deliver(
                queued.delivery, to: queued.url, over: &connection, deadline: .now() + options.requestTimeout)
            var ended = [attempt]
            if !answered {
                let until = now().addingTimeInterval(Double(options.requestTimeout.nanoseconds) / 1e9)
                ended += queues.drain(origin).map {
                    DeliveryAttempt(deliveryID: $0.delivery.id, outcome: .postponed(until: until), result: "")
                }
            }
            queues.finish(ended)
        }
        client.release(connection)
    }

    /// Records the attempts that ended, together (in a task of its own, so a cancelled dispatcher still records
    /// what it sent); when that fails, they are tried again after their leases.
    func record(_ queues: DeliveryQueues) async {
        let attempts = queues.takeFinished()
        guard !attempts.isEmpty else { return }
        let (store, instant) = (store, now())
        do {
            try await Task { try await store.recordAttempts(attempts, now: instant) }.value
        } catch {
            WorkLoop.Failures.report(
                error, logger: logger,
                message: "webhook attempts could not be recorded; they are tried again after their lease",
                metadata: ["deliveries": "\(attempts.count)"])
        }
        queues.recorded(attempts.count)
    }

    /// Sends one delivery over its lane's connection, by `deadline`.
    /// - Returns: What came of it, to record with the lane's others, and whether the receiver answered at all.
    func deliver(
        _ delivery: LeasedDelivery, to url: WebhookURL?, over connection: inout WebhookHTTPClient.Connection?,
        deadline: NIODeadline
    ) async -> (attempt: DeliveryAttempt, answered: Bool) {
        let sentAt = now()
        let body = ByteBuffer(string: delivery.body)
        let timestamp = Int64(sentAt.timeIntervalSince1970)
        let signatures = body.withUnsafeReadableBytes { bytes in
            [
                (
                    WebhookSignature.header,
                    WebhookSignature.value(secret: delivery.secret, timestamp: timestamp, body: bytes)
                )
            ]
                + StandardWebhookSignature.headers(
                    secret: delivery.secret, id: delivery.eventID, timestamp: timestamp, body: bytes)
        }
        let result: String
        var detail: String?
        let delivered: Bool
        var answered = true
        if let url {
            do {
                let status = try await client.post(
                    url,
                    headers: [
                        ("Content-Type", "application/json"), ("User-Agent", "StoreKeeper-Webhooks/1"),
                        ("StoreKeeper-Event-Id", delivery.eventID),
                    ] + signatures, body: body, over: &connection, deadline: deadline)
                result = "HTTP \(status)"
                delivered = (200..<300).contains(status)
            } catch {
                result = "not sent: \((error as? WebhookHTTPError)?.deliveryLog ?? "no HTTP answer")"
                detail = "\(error)"
                delivered = false
                answered = false
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
        return (DeliveryAttempt(deliveryID: delivery.id, outcome: outcome, result: result), answered)
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
