import Foundation
import Hummingbird
import Logging
import StoreKeeperServer
import Synchronization

/// The webhook receiver `storekeeper load` runs on loopback: checks each delivery's signature, counts event ids
/// (and raw deliveries, so at-least-once repeats show), and times the first and the last event received.
final class LoadWebhookReceiver: Sendable {
    /// What arrived so far.
    struct Tally: Sendable {
        /// Distinct event ids.
        var events = Set<String>()
        /// Every delivery, repeats included.
        var raw = 0
        /// Deliveries whose signature did not verify.
        var badSignatures = 0
        /// When the first and the latest new event arrived.
        var first: ContinuousClock.Instant?
        var last: ContinuousClock.Instant?

        /// New events per second between the first and the last.
        var perSecond: Double {
            guard let first, let last, last > first else { return 0 }
            let elapsed = last - first
            return Double(events.count - 1)
                / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    private let state = Mutex<(tally: Tally, secret: String)>((Tally(), ""))

    /// What arrived so far.
    var tally: Tally { state.withLock { $0.tally } }

    /// The secret deliveries are signed with (the endpoint's, shown once when it was added).
    func expect(secret: String) { state.withLock { $0.secret = secret } }

    /// Runs the receiver on a free loopback port while `body` runs with its URL.
    func run<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 4 << 20)
            self.record(
                eventID: request.headers.first { $0.name.canonicalName == "storekeeper-event-id" }?.value,
                signature: request.headers.first { $0.name.canonicalName == "storekeeper-signature" }?.value,
                body: buffer.readableBytesView)
            return Response(status: .ok)
        }
        var logger = Logger(label: "storekeeper.load.receiver")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            defer { group.cancelAll() }
            return try await body("http://127.0.0.1:\(port)/hook")
        }
    }

    func record(eventID: String?, signature: String?, body: some Collection<UInt8>) {
        let now = ContinuousClock.now
        let secret = state.withLock { $0.secret }
        let valid = signature.map { WebhookSignature.isValid($0, secret: secret, body: body, now: Date()) } ?? false
        state.withLock { state in
            state.tally.raw += 1
            if !valid { state.tally.badSignatures += 1 }
            guard let eventID, state.tally.events.insert(eventID).inserted else { return }
            if state.tally.first == nil { state.tally.first = now }
            state.tally.last = now
        }
    }
}
