public import AsyncHTTPClient
import Foundation
import NIOCore
public import NIOHTTP1

/// Calls a StoreKeeper server over HTTP without blocking a thread of the test run's small pool (a blocking `curl`
/// there stalls every other test that waits on a loopback server in this process).
public struct ServeClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let base: String

    /// A client of the server at `base`.
    public init(base: String) { self.base = base }

    /// The status and body of one call.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path and query.
    ///   - key: The API key sent as a bearer token (`nil`: none; default: the demo public key).
    ///   - body: The body, if any.
    public func call(
        _ method: HTTPMethod, _ path: String, key: String? = "pk_demo_storekeeper_public", body: String? = nil
    ) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }
}
