import Foundation
public import NIOCore
public import NIOHTTP1
import NIOPosix
import Synchronization

/// One keep-alive HTTP/1.1 connection of the load generator: sends a request, waits for the whole response,
/// records its latency and sends the next, all on its event loop (no task hops per request, so the generator
/// takes as little of the cores it shares with the server as it can).
public final class LoadConnection: ChannelInboundHandler {
    /// HTTP response parts.
    public typealias InboundIn = HTTPClientResponsePart
    /// HTTP request parts.
    public typealias OutboundOut = HTTPClientRequestPart

    /// What one connection measured.
    public struct Result: Sendable {
        /// Each request's latency, in seconds.
        public var latencies: [Double] = []
        /// Requests answered with an error status or not answered.
        public var failures = 0
    }

    let source: LoadSource
    let headers: HTTPHeaders
    let finish: @Sendable (Swift.Result<Result, any Error>) -> Void
    var result = Result()
    var started = NIODeadline.now()
    var status = HTTPResponseStatus.ok
    var finished = false

    init(
        source: LoadSource, headers: HTTPHeaders, finish: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void
    ) {
        self.source = source
        self.headers = headers
        self.finish = finish
    }

    /// Opens `count` connections to `host:port` and runs them until `source` is exhausted.
    public static func run(host: String, port: Int, count: Int, headers: HTTPHeaders, source: LoadSource) async throws
        -> Result
    {
        try await withThrowingTaskGroup(of: Result.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        let once = Mutex(false)
                        let finish: @Sendable (Swift.Result<Result, any Error>) -> Void = { outcome in
                            let first = once.withLock { done in
                                defer { done = true }
                                return !done
                            }
                            if first { continuation.resume(with: outcome) }
                        }
                        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                            .channelOption(.socketOption(.tcp_nodelay), value: 1)
                            .channelInitializer { channel in
                                channel.eventLoop.makeCompletedFuture {
                                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                                    try channel.pipeline.syncOperations.addHandler(
                                        LoadConnection(source: source, headers: headers, finish: finish))
                                }
                            }
                            .connect(host: host, port: port)
                            .whenFailure { finish(.failure($0)) }
                    }
                }
            }
            var total = Result()
            for try await part in group {
                total.latencies += part.latencies
                total.failures += part.failures
            }
            return total
        }
    }

    /// Sends the first request.
    public func channelActive(context: ChannelHandlerContext) {
        sendNext(context)
    }

    /// Records a response part; a whole response sends the next request.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status
        case .body:
            break
        case .end:
            let elapsed = NIODeadline.now() - started
            result.latencies.append(Double(elapsed.nanoseconds) / 1e9)
            if status != .ok { result.failures += 1 }
            sendNext(context)
        }
    }

    /// Ends the connection's run with the error, and closes it.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done(.failure(error))
        context.close(promise: nil)
    }

    /// A connection closed before its source ran out: the run fails (after a normal end, nothing happens).
    public func channelInactive(context: ChannelHandlerContext) {
        done(.failure(ChannelError.ioOnClosedChannel))
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        guard let request = source.next() else {
            done(.success(result))
            context.close(promise: nil)
            return
        }
        var head = HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers)
        head.headers.add(name: "Content-Length", value: String(request.body?.readableBytes ?? 0))
        started = .now()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body = request.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func done(_ outcome: Swift.Result<Result, any Error>) {
        guard !finished else { return }
        finished = true
        finish(outcome)
    }
}
