import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Calls a running server (or its simulator) with JSON bodies and answers: the one helper of the commands that
/// drive a server over HTTP.
struct JSONCaller: Sendable {
    /// A call answered with a status other than 2xx (or not answered).
    struct Failure: Error, CustomStringConvertible {
        /// The call (`POST /simulator/v1/purchases`).
        var call: String
        /// The HTTP status, or 0 when there was no answer.
        var status: Int
        /// The error code of the body (`{"error": {"code": …}}`), or `http_<status>`.
        var code: String
        /// What the body or the transport said.
        var message: String

        var description: String { "\(call): HTTP \(status) \(code): \(message)" }
    }

    /// The server's base URL (`http://127.0.0.1:8080`).
    let base: String
    let client: HTTPClient
    /// The `Authorization: Bearer` key, when the calls need one.
    var bearer: String?

    /// One call.
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - path: The path (with its query).
    ///   - body: A JSON object to send.
    ///   - timeout: How long to wait for the answer.
    /// - Returns: The answer's JSON object (empty when it is not one).
    /// - Throws: ``Failure``.
    @discardableResult
    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Int64 = 60) async throws
        -> [String: Any]
    {
        let name = "\(method) \(path)"
        var request = HTTPClientRequest(url: base + path)
        request.method = HTTPMethod(rawValue: method)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let status: Int
        let data: Data
        do {
            let response = try await client.execute(request, timeout: .seconds(timeout))
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: 1 << 24).readableBytesView)
        } catch {
            throw Failure(call: name, status: 0, code: "no_response", message: "\(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(status) else {
            let error = object["error"] as? [String: Any]
            throw Failure(
                call: name, status: status, code: error?["code"] as? String ?? "http_\(status)",
                message: error?["message"] as? String ?? String(decoding: data.prefix(300), as: UTF8.self))
        }
        return object
    }
}
