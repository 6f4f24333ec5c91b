import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A loopback HTTP/1.1 server that answers each request (numbered from 0 across connections) as its script says,
/// and counts connections and requests: to watch what a client does on the wire.
final class ScriptedHTTPServer: Sendable {
    /// How to answer one request.
    enum Answer: Sendable {
        /// This status, keeping the connection.
        case status(Int)
        /// This status with `Connection: close`, then close.
        case statusAndClose(Int)
        /// Close the connection without answering.
        case close
        /// Never answer.
        case silent
    }

    /// One request received.
    struct Request: Sendable {
        /// The request line's target.
        var target: String
        /// Every header.
        var headers: [(String, String)]
        /// The body's bytes.
        var body: [UInt8]
    }

    private struct Counts {
        var connections = 0
        var requests: [Request] = []
    }

    private let counts = Mutex(Counts())
    private let script: @Sendable (Int) -> Answer
    private let tls: NIOSSLContext?
    private let channel = Mutex<(any Channel)?>(nil)

    /// Connections accepted so far.
    var connections: Int { counts.withLock { $0.connections } }
    /// Requests received so far, in order.
    var requests: [Request] { counts.withLock { $0.requests } }

    /// The port it listens on (after ``start()``).
    var port: Int { channel.withLock { $0?.localAddress?.port ?? 0 } }

    /// A server answering as `script` says, over TLS when `tls` is given.
    init(tls: TLSConfiguration? = nil, script: @escaping @Sendable (Int) -> Answer) throws {
        self.script = script
        self.tls = try tls.map { try NIOSSLContext(configuration: $0) }
    }

    /// Listens on a free loopback port.
    func start() async throws {
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    self.counts.withLock { $0.connections += 1 }
                    if let tls = self.tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server: self))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel.withLock { $0 = bound }
    }

    /// Stops listening.
    func stop() async {
        let bound = channel.withLock { $0 }
        try? await bound?.close()
    }

    fileprivate func received(_ request: Request) -> Answer {
        let number = counts.withLock { counts in
            counts.requests.append(request)
            return counts.requests.count - 1
        }
        return script(number)
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let server: ScriptedHTTPServer
        var request = Request(target: "", headers: [], body: [])

        init(server: ScriptedHTTPServer) {
            self.server = server
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                request = Request(target: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: [])
            case .body(let buffer):
                request.body += buffer.readableBytesView
            case .end:
                switch server.received(request) {
                case .status(let code):
                    answer(code, close: false, context: context)
                case .statusAndClose(let code):
                    answer(code, close: true, context: context)
                case .close:
                    context.close(promise: nil)
                case .silent:
                    break
                }
            }
        }

        private func answer(_ code: Int, close: Bool, context: ChannelHandlerContext) {
            let body = code == 204 || code == 304 ? "" : "ok"
            var headers = HTTPHeaders(body.isEmpty ? [] : [("Content-Length", "\(body.utf8.count)")])
            if code / 100 == 3 { headers.add(name: "Location", value: "http://169.254.169.254/latest/meta-data") }
            if close { headers.add(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(
                    .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: code), headers: headers))),
                promise: nil)
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if close {
                let context = NIOLoopBound(context, eventLoop: context.eventLoop)
                done.whenComplete { _ in context.value.close(promise: nil) }
            }
        }
    }
}
