public import NIOCore
import NIOHTTP1
import NIOPosix
public import NIOSSL
import Synchronization

/// Posts webhook deliveries over HTTP/1.1 connections it keeps open per origin.
///
/// Made for the dispatcher's lanes: a lane holds one connection and sends its deliveries on it one after another,
/// so a request costs a write and a read, with no pool queue and no timer beyond its own deadline. A connection
/// goes only to an address that was checked (``WebhookTarget``): the host is resolved, every address it names is
/// judged, and the connection is made to one of those very addresses — a name re-pointed between the check and the
/// connect (DNS rebinding) gains nothing. Redirects are never followed: the answer's status is the result.
public final class WebhookHTTPClient: Sendable {
    /// How the client connects.
    public struct Configuration: Sendable {
        /// How long a connection attempt to one address may take.
        public var connectTimeout: TimeAmount = .seconds(3)
        /// The most connections to one origin: the dispatcher sends an origin's deliveries in this many lanes at
        /// most, each on one connection, and as many are kept open between them.
        public var connectionsPerOrigin = 8
        /// How long an idle connection is kept before it is closed instead of reused.
        public var idleTimeout: Duration = .seconds(30)
        /// TLS for `https` endpoints: the system's trust roots and full verification unless replaced.
        public var tls = TLSConfiguration.makeClientConfiguration()

        /// The defaults.
        public init() {}
    }

    /// A connection a lane holds while it sends.
    struct Connection: Sendable {
        /// The channel.
        let channel: any Channel
        /// The origin it is connected to (``WebhookURL/origin``).
        let origin: String
        /// Whether it carried a request before this lane took it (a reused connection may have been closed by the
        /// receiver meanwhile, which only shows when a request is sent).
        var reused: Bool
    }

    private struct Idle {
        var channels: [String: [(channel: any Channel, since: ContinuousClock.Instant)]] = [:]
        var shutDown = false
    }

    let configuration: Configuration
    private let group: any EventLoopGroup
    private let idle = Mutex(Idle())
    /// Where host names are looked up (`getaddrinfo` blocks): threads of its own, started with the client.
    private let resolver: NIOThreadPool
    /// Made when the first `https` endpoint is reached (reading the trust roots can fail; that delivery then
    /// fails with the reason, and the next one tries again).
    private let sslContext = Mutex<NIOSSLContext?>(nil)

    /// A client.
    /// - Parameters:
    ///   - configuration: Timeouts, idle connections, TLS.
    ///   - group: The event loops connections run on (NIO's shared ones when `nil`).
    public init(configuration: Configuration = Configuration(), group: (any EventLoopGroup)? = nil) {
        self.configuration = configuration
        self.group = group ?? MultiThreadedEventLoopGroup.singleton
        self.resolver = NIOThreadPool(numberOfThreads: 1)
        resolver.start()
    }

    /// Posts `body` to `url` over `connection` (or a connection taken or made for it), by `deadline`.
    ///
    /// On return `connection` is the connection to send the lane's next request on, or `nil` when it closed. A
    /// reused connection that turns out closed before answering is replaced once: the request goes again on a new
    /// one (a receiver may see it twice; deliveries are at least once, deduplicated by event id).
    /// - Returns: The answer's status code.
    /// - Throws: ``WebhookHTTPError`` or the connection's error (TLS, I/O).
    func post(
        _ url: WebhookURL, headers: [(String, String)], body: ByteBuffer, over connection: inout Connection?,
        deadline: NIODeadline
    ) async throws -> Int {
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: url.target)
        head.headers.reserveCapacity(headers.count + 2)
        head.headers.add(name: "Host", value: url.hostHeader)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        head.headers.add(name: "Content-Length", value: String(body.readableBytes))
        while true {
            let current: Connection
            if let connection, connection.origin == url.origin {
                current = connection
            } else {
                if let connection { release(connection) }
                connection = nil
                current = try await open(url, deadline: deadline)
            }
            connection = current
            do {
                let answer = try await exchange(head: head, body: body, on: current.channel, deadline: deadline)
                if answer.keepAlive {
                    connection?.reused = true
                } else {
                    connection = nil
                }
                return answer.status
            } catch WebhookHTTPError.closed(answered: false) where current.reused {
                connection = nil
                continue
            } catch {
                connection = nil
                current.channel.close(promise: nil)
                throw error
            }
        }
    }

    /// Hands a lane's connection back to be reused (or closes it when enough are idle).
    func release(_ connection: Connection?) {
        guard let connection else { return }
        let kept = idle.withLock { idle -> Bool in
            guard !idle.shutDown, connection.channel.isActive,
                idle.channels[connection.origin, default: []].count < configuration.connectionsPerOrigin
            else { return false }
            idle.channels[connection.origin, default: []].append((connection.channel, ContinuousClock.now))
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    /// Closes every idle connection; later requests fail with ``WebhookHTTPError/shutDown``.
    public func shutdown() async {
        let channels = idle.withLock { idle in
            idle.shutDown = true
            defer { idle.channels = [:] }
            return idle.channels.values.flatMap { $0.map(\.channel) }
        }
        for channel in channels { try? await channel.close() }
        try? await resolver.shutdownGracefully()
    }

    /// An idle connection to the origin, or a new one to a checked address.
    private func open(_ url: WebhookURL, deadline: NIODeadline) async throws -> Connection {
        let now = ContinuousClock.now
        let (reusable, stale) = try idle.withLock { idle throws -> ((any Channel)?, [any Channel]) in
            guard !idle.shutDown else { throw WebhookHTTPError.shutDown }
            var stale: [any Channel] = []
            while let last = idle.channels[url.origin]?.popLast() {
                if last.channel.isActive && now - last.since < configuration.idleTimeout {
                    return (last.channel, stale)
                }
                stale.append(last.channel)
            }
            return (nil, stale)
        }
        for channel in stale { channel.close(promise: nil) }
        if let reusable { return Connection(channel: reusable, origin: url.origin, reused: true) }
        let addresses: [[UInt8]]
        switch await WebhookTarget.resolution(of: url.host, pool: resolver) {
        case .refused(let reason): throw WebhookHTTPError.refused(reason)
        case .addresses(let found): addresses = found
        }
        guard !addresses.isEmpty else { throw WebhookHTTPError.unresolved(host: url.host) }
        var lastError: any Error = WebhookHTTPError.unresolved(host: url.host)
        for address in addresses {
            do {
                let socket = try SocketAddress(packedIPAddress: ByteBuffer(bytes: address), port: url.port)
                let channel = try await bootstrap(for: url, deadline: deadline).connect(to: socket).get()
                return Connection(channel: channel, origin: url.origin, reused: false)
            } catch {
                lastError = error
            }
        }
        throw WebhookHTTPError.unreachable(host: url.host, port: url.port, reason: "\(lastError)")
    }

    private func bootstrap(for url: WebhookURL, deadline: NIODeadline) throws -> ClientBootstrap {
        let remaining = deadline - NIODeadline.now()
        let tls = url.isTLS ? try tlsContext() : nil
        // SNI names a host, never an address literal (TLS forbids it; the certificate is then checked against
        // the address).
        let serverName = WebhookTarget.isAddressLiteral(url.host) ? nil : url.host
        return ClientBootstrap(group: group)
            .connectTimeout(min(configuration.connectTimeout, max(remaining, .milliseconds(1))))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(WebhookExchangeHandler())
                }
            }
    }

    private func tlsContext() throws -> NIOSSLContext {
        try sslContext.withLock { context in
            if let context { return context }
            let made = try NIOSSLContext(configuration: configuration.tls)
            context = made
            return made
        }
    }

    private func exchange(head: HTTPRequestHead, body: ByteBuffer, on channel: any Channel, deadline: NIODeadline)
        async throws -> WebhookAnswer
    {
        let answer = channel.eventLoop.makePromise(of: WebhookAnswer.self)
        channel.writeAndFlush(WebhookExchange(head: head, body: body, deadline: deadline, answer: answer))
            .whenFailure { error in
                // A connection found closed when the request is written never reached the handler.
                if case ChannelError.ioOnClosedChannel = error {
                    answer.fail(WebhookHTTPError.closed(answered: false))
                } else {
                    answer.fail(error)
                }
            }
        return try await answer.futureResult.get()
    }
}
