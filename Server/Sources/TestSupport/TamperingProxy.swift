import AsyncHTTPClient
public import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// A hostile network between an app and its server, on loopback: forwards every request to the server and lets a
/// test rewrite the request on its way there (swap its body or key) and the answer on its way back — change the
/// body, strip the signature, or replay an answer recorded earlier. It records every request and answer it
/// forwarded, by `METHOD target`.
public final class TamperingProxy: Sendable {
    /// An answer on its way back to the app.
    public struct Answer: Sendable {
        /// The status.
        public var status: Int
        /// The headers, by name.
        public var headers: [(String, String)]
        /// The body.
        public var body: Data

        /// Removes the headers named `name` (without case).
        public mutating func remove(_ name: String) {
            headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    /// A request on its way to the server.
    public struct Outgoing: Sendable {
        /// `METHOD target`, as the app sent it.
        public let request: String
        /// The headers, by name.
        public var headers: [(String, String)]
        /// The body.
        public var body: Data

        /// The value of the header named `name` (without case).
        public func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }

        /// Sets the header named `name` (without case) to `value`.
        public mutating func set(_ name: String, _ value: String) {
            headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
            headers.append((name, value))
        }
    }

    /// Rewrites the answer to a request (`METHOD target`) before it reaches the app.
    public typealias Tamper =
        @Sendable (_ request: String, _ answer: inout Answer, _ recorded: [String: Answer]) -> Void
    /// Rewrites a request before it reaches the server, with the requests recorded so far (`METHOD target` →
    /// the last one sent).
    public typealias RequestTamper = @Sendable (_ request: inout Outgoing, _ recorded: [String: [Outgoing]]) -> Void

    private struct State {
        var tamper: Tamper?
        var requestTamper: RequestTamper?
        var recorded: [String: Answer] = [:]
        var requests: [String: [Outgoing]] = [:]
    }

    private let state = Mutex(State())
    private let upstream: String

    /// A proxy in front of `upstream` (`http://127.0.0.1:PORT`).
    public init(upstream: String) { self.upstream = upstream }

    /// The rewrite applied from now on; `nil` passes answers unchanged.
    public func tamper(_ tamper: Tamper?) { state.withLock { $0.tamper = tamper } }

    /// The rewrite of requests applied from now on; `nil` passes requests unchanged.
    public func tamperRequests(_ tamper: RequestTamper?) { state.withLock { $0.requestTamper = tamper } }

    /// The last genuine answer the server gave to `request` (`METHOD target`).
    public func recorded(_ request: String) -> Answer? { state.withLock { $0.recorded[request] } }

    /// The requests the app sent as `request` (`METHOD target`), oldest first, as the app sent them.
    public func sent(_ request: String) -> [Outgoing] { state.withLock { $0.requests[request] ?? [] } }

    /// A router forwarding every path and method.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("**", method: method) { request, _ in try await self.forward(request) }
        }
        return router
    }

    private func forward(_ request: Request) async throws -> Response {
        let target = request.uri.description
        let key = "\(request.method.rawValue) \(target)"
        var sending = Outgoing(
            request: key,
            headers: request.headers.filter { $0.name.canonicalName != "host" }.map { ($0.name.rawName, $0.value) },
            body: Data(try await request.body.collect(upTo: 16 << 20).readableBytesView))
        let (requestTamper, requests) = state.withLock { state in
            defer { state.requests[key, default: []].append(sending) }
            return (state.requestTamper, state.requests)
        }
        requestTamper?(&sending, requests)
        var outgoing = HTTPClientRequest(url: upstream + target)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in sending.headers { outgoing.headers.add(name: name, value: value) }
        outgoing.body = .bytes(ByteBuffer(bytes: sending.body))
        let response = try await HTTPClient.shared.execute(outgoing, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        let skipped: Set<String> = ["content-length", "transfer-encoding", "connection"]
        var answer = Answer(
            status: Int(response.status.code),
            headers: response.headers.filter { !skipped.contains($0.name.lowercased()) }.map { ($0.name, $0.value) },
            body: Data(bytes.readableBytesView))
        let (tamper, recorded) = state.withLock { state in
            defer { state.recorded[key] = answer }
            return (state.tamper, state.recorded)
        }
        tamper?(key, &answer, recorded)
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        return Response(
            status: .init(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
