import Hummingbird
public import HummingbirdCore
public import Logging
public import NIOCore

/// Hummingbird's HTTP/1.1 channel with StoreKeeper's connection limits: a maximum number of connections, and
/// idle, header and body timeouts (``ConnectionLimits``).
public struct GuardedHTTP1Channel: ServerChildChannel {
    /// What the wrapped channel hands each connection's handler.
    public typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let limits: ConnectionLimits
    let counter: ConnectionCounter

    /// Sets up one connection: the raw-byte guard first, then Hummingbird's pipeline.
    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(
                RawConnectionGuard(limits: limits, counter: counter), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    /// Serves the connection's requests.
    public func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with StoreKeeper's connection limits.
    /// - Parameter limits: The limits.
    /// - Returns: The builder to pass as an `Application`'s `server`.
    public static func storeKeeper(_ limits: ConnectionLimits) -> HTTPServerBuilder {
        let counter = ConnectionCounter()
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                inner: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [RequestPhaseGuard(limits: limits)],
                        idleTimeout: .nanoseconds(Int64(limits.idleTimeoutSeconds * 1e9)))),
                limits: limits, counter: counter)
        }
    }
}
