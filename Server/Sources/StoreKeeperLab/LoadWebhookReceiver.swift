import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import StoreKeeperCLI
import StoreKeeperServer
import Synchronization

/// The webhook receiver `storekeeper-lab load` runs on loopback: checks each delivery's signature, counts event ids
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
        /// When the first and the latest new event of the current round arrived.
        var first: ContinuousClock.Instant?
        var last: ContinuousClock.Instant?
        /// Distinct events when the current round began.
        var roundStart = 0
        /// Gaps between events and their seconds in the rounds closed so far (``LoadWebhookReceiver/closeRound()``).
        var closedGaps = 0
        var closedSeconds = 0.0

        /// New events per second between the first and the last of each round (rounds added up).
        var perSecond: Double {
            let open = first.flatMap { first in last.map { Self.seconds($0 - first) } } ?? 0
            let gaps = closedGaps + max(0, events.count - roundStart - 1)
            let seconds = closedSeconds + open
            return seconds > 0 ? Double(gaps) / seconds : 0
        }

        /// Ends the current round: its events and time are kept apart from the next round's.
        mutating func closeRound() {
            if let first, let last {
                closedGaps += max(0, events.count - roundStart - 1)
                closedSeconds += Self.seconds(last - first)
            }
            first = nil
            last = nil
            roundStart = events.count
        }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    private let state = Mutex<(tally: Tally, secret: String)>((Tally(), ""))

    /// What arrived so far.
    var tally: Tally { state.withLock { $0.tally } }

    /// Ends a round of deliveries: the time between rounds does not count toward the delivery rate.
    func closeRound() { state.withLock { $0.tally.closeRound() } }

    /// The secret deliveries are signed with (the endpoint's, shown once when it was added).
    func expect(secret: String) { state.withLock { $0.secret = secret } }

    /// Runs the receiver on a free loopback port while `body` runs with its URL.
    ///
    /// A bare HTTP/1.1 handler on NIO (keep-alive, one answer per request, no router): it shares the machine's
    /// cores with the server it measures, so it does as little as a receiver can while still checking every
    /// signature and counting every id.
    func run<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(DeliveryHandler(receiver: self))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            let result = try await body("http://127.0.0.1:\(channel.localAddress?.port ?? 0)/hook")
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Reads one delivery (its two headers and its body), records it, and answers 200.
    private final class DeliveryHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let receiver: LoadWebhookReceiver
        var eventID: String?
        var signature: String?
        var body = ByteBuffer()

        init(receiver: LoadWebhookReceiver) {
            self.receiver = receiver
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                eventID = head.headers.first(name: "StoreKeeper-Event-Id")
                signature = head.headers.first(name: "StoreKeeper-Signature")
                body.clear()
            case .body(var part):
                body.writeBuffer(&part)
            case .end:
                receiver.record(eventID: eventID, signature: signature, body: body.readableBytesView)
                let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
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
