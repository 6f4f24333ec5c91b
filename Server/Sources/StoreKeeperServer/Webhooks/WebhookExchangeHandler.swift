import NIOCore
import NIOHTTP1

/// One request on a webhook connection at a time: writes it, reads the answer's status (the body is read and
/// dropped), and completes the request's promise when the answer ends — or fails it when the connection closes,
/// errs, or the request's deadline passes first (the connection is then closed).
final class WebhookExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = WebhookExchange
    typealias OutboundOut = HTTPClientRequestPart

    private var pending: EventLoopPromise<WebhookAnswer>?
    private var deadline: Scheduled<Void>?
    private var status: Int?
    private var keepAlive = true

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        guard pending == nil else {
            exchange.answer.fail(WebhookHTTPError.closed(answered: false))
            promise?.fail(WebhookHTTPError.closed(answered: false))
            return
        }
        pending = exchange.answer
        status = nil
        keepAlive = true
        deadline = context.eventLoop.assumeIsolated().scheduleTask(deadline: exchange.deadline) { [self] in
            self.fail(WebhookHTTPError.timedOut)
            context.close(promise: nil)
        }
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(exchange.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            keepAlive = head.isKeepAlive
        case .body:
            break
        case .end:
            guard let status, let answer = pending else { return }
            pending = nil
            deadline?.cancel()
            deadline = nil
            answer.succeed(WebhookAnswer(status: status, keepAlive: keepAlive))
            if !keepAlive { context.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(WebhookHTTPError.closed(answered: status != nil))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        deadline?.cancel()
        deadline = nil
        let answer = pending
        pending = nil
        answer?.fail(error)
    }
}

/// A request handed to ``WebhookExchangeHandler`` with the promise of its answer.
struct WebhookExchange: Sendable {
    /// The request line and headers.
    let head: HTTPRequestHead
    /// The body.
    let body: ByteBuffer
    /// When to give up waiting for the answer.
    let deadline: NIODeadline
    /// Completed with the answer.
    let answer: EventLoopPromise<WebhookAnswer>
}

/// An answer's status, and whether the connection may carry another request.
struct WebhookAnswer: Sendable {
    /// The HTTP status code.
    let status: Int
    /// Whether the receiver keeps the connection open.
    let keepAlive: Bool
}
