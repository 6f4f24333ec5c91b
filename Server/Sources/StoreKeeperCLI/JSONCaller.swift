package import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
package import StoreKeeperAPI

/// Calls a running server (or its simulator) with JSON bodies and answers: the one helper of the commands that
/// drive a server over HTTP.
package struct JSONCaller: Sendable {
    /// A call answered with a status other than 2xx (or not answered).
    package struct Failure: Error, CustomStringConvertible {
        /// The call (`POST /simulator/v1/purchases`).
        package var call: String
        /// The HTTP status, or 0 when there was no answer.
        package var status: Int
        /// The error code of the body (`{"error": {"code": …}}`), `http_<status>` without one, or what the
        /// command found wrong with an answer.
        package var code: Code
        /// What the body or the transport said.
        package var message: String

        package var description: String { "\(call): HTTP \(status) \(code): \(message)" }

        /// Why a call failed: the server's own code, or one of the caller's (each a constant here, none spelled
        /// where it is thrown or compared).
        package struct Code: Hashable, Sendable, CustomStringConvertible {
            /// The snake_case text.
            package let rawValue: String
            private init(_ rawValue: String) { self.rawValue = rawValue }
            package var description: String { rawValue }

            /// The code the server answered with.
            package static func answered(_ code: APIErrorCode) -> Code { Code(code.rawValue) }
            /// A non-2xx answer without an error body.
            package static func http(_ status: Int) -> Code { Code("http_\(status)") }
            /// No answer at all (refused, reset, timed out).
            package static let noResponse = Code("no_response")
            /// An action for a customer who never subscribed.
            package static let notSubscribed = Code("not_subscribed")
            /// A subscription whose state names no latest transaction.
            package static let noLatestTransaction = Code("no_latest_transaction")
            /// A paywall that showed another experiment variant than the customer's.
            package static let unexpectedVariant = Code("unexpected_variant")
            /// A 2xx answer without the fields the command needs.
            package static let unexpectedAnswer = Code("unexpected_answer")
        }
    }

    /// The server's base URL (`http://127.0.0.1:8080`).
    package let base: String
    package let client: HTTPClient
    /// The `Authorization: Bearer` key, when the calls need one.
    package var bearer: String?

    /// A caller of `base` through `client`, sending `bearer` as the `Authorization` key when given.
    package init(base: String, client: HTTPClient, bearer: String? = nil) {
        self.base = base
        self.client = client
        self.bearer = bearer
    }

    /// One call.
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - path: The path (with its query).
    ///   - body: A JSON object to send.
    ///   - timeout: How long to wait for the answer.
    /// - Returns: The answer's JSON object (empty when it is not one).
    /// - Throws: ``Failure``.
    @discardableResult
    package func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Int64 = 60) async throws
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
            throw Failure(call: name, status: 0, code: .noResponse, message: "\(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(status) else {
            let error = object["error"] as? [String: Any]
            let code = (error?["code"] as? String).map { Failure.Code.answered(APIErrorCode(rawValue: $0)) }
            throw Failure(
                call: name, status: status, code: code ?? .http(status),
                message: error?["message"] as? String ?? String(decoding: data.prefix(300), as: UTF8.self))
        }
        return object
    }
}
