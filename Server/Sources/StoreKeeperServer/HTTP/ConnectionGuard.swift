import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import StoreKeeperAPI
import Synchronization

/// How many connections are open, across every event loop of one server.
final class ConnectionCounter: Sendable {
    let open = Atomic<Int>(0)

    /// Counts a new connection; returns how many are open with it.
    func opened() -> Int { open.add(1, ordering: .relaxed).newValue }

    /// Counts a closed connection.
    func closed() { open.subtract(1, ordering: .relaxed) }
}

/// Where a connection is in its current request, shared by the two handlers of one connection (on its event
/// loop only).
final class ConnectionPhase {
    enum Phase { case idle, readingHead, readingBody, responding }

    var phase = Phase.idle
    var deadline: Scheduled<Void>?

    func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}

/// First in the pipeline, on raw bytes: refuses a connection beyond the maximum (503, closed at once), and gives
/// a request from its first byte ``ConnectionLimits/headerTimeoutSeconds`` to complete its header (then 408 and
/// close). Raw bytes are written here only while no request is being answered.
final class RawConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let limits: ConnectionLimits
    let counter: ConnectionCounter
    let state = ConnectionPhase()
    var counted = false

    init(limits: ConnectionLimits, counter: ConnectionCounter) {
        self.limits = limits
        self.counter = counter
    }

    func channelActive(context: ChannelHandlerContext) {
        counted = true
        if counter.opened() > limits.maximumConnections {
            Self.answer(
                context, status: "503 Service Unavailable", code: .tooManyConnections,
                message: "the server has \(limits.maximumConnections) connections open; try again shortly")
            return
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted { counter.closed() }
        counted = false
        state.cancelDeadline()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if state.phase == .idle {
            state.phase = .readingHead
            state.cancelDeadline()
            let limits = self.limits
            state.deadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(
                in: .nanoseconds(Int64(limits.headerTimeoutSeconds * 1e9))
            ) { [state] in
                guard state.phase == .readingHead else { return }
                Self.answer(
                    context, status: "408 Request Timeout", code: .headerTimeout,
                    message: "the request header was not complete within \(limits.headerTimeoutSeconds) s")
            }
        }
        context.fireChannelRead(data)
    }

    /// Writes a whole JSON error response as raw bytes and closes the connection.
    static func answer(_ context: ChannelHandlerContext, status: String, code: APIErrorCode, message: String) {
        let body = APIError.body(code: code, message: message)
        var buffer = context.channel.allocator.buffer(
            string:
                "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        )
        buffer.writeBytes(body)
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// After HTTP decoding: follows each request's phases for ``RawConnectionGuard`` (which it finds in the same
/// pipeline), closes a connection whose body is not complete within ``ConnectionLimits/bodyTimeoutSeconds`` or
/// whose response is not written out within ``ConnectionLimits/responseTimeoutSeconds`` (a client that does not
/// read would otherwise hold the connection and its queued answers for ever), and
/// answers a request that cannot be parsed before its header is complete with a JSON 400 (a parse failure inside a
/// body reaches the route, which answers the same way).
final class RequestPhaseGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: ConnectionLimits
    var state = ConnectionPhase()
    var answeredParseError = false
    /// The deadline of the response being written (each response has its own; pipelined ones overlap).
    var responseDeadline: Scheduled<Void>?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let raw = try? context.pipeline.syncOperations.handler(type: RawConnectionGuard.self) { state = raw.state }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            // The peer's address, as only this handler may state it (the audit log's `address`).
            head.headerFields[AuditNote.peerAddress] = context.remoteAddress?.ipAddress
            state.cancelDeadline()
            state.phase = .readingBody
            state.deadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(
                in: .nanoseconds(Int64(limits.bodyTimeoutSeconds * 1e9))
            ) { [state] in
                guard state.phase == .readingBody else { return }
                context.close(promise: nil)
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        case .body:
            break
        case .end:
            state.cancelDeadline()
            state.phase = .responding
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            if responseDeadline == nil {
                responseDeadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(
                    in: .nanoseconds(Int64(limits.responseTimeoutSeconds * 1e9))
                ) { context.close(promise: nil) }
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            if state.phase == .responding { state.phase = .idle }
            // The deadline ends when the response's last bytes reach the socket, not when they are queued.
            let deadline = responseDeadline
            responseDeadline = nil
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.whenComplete { _ in deadline?.cancel() }
            context.write(data, promise: written)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        responseDeadline?.cancel()
        responseDeadline = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, state.phase == .idle || state.phase == .readingHead else {
            return context.fireErrorCaught(error)
        }
        guard !answeredParseError else { return }
        answeredParseError = true
        state.cancelDeadline()
        let body = APIError.body(code: .malformedRequest, message: "the request is not valid HTTP/1.1")
        var head = HTTPResponse(status: .badRequest)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
