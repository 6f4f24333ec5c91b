import AppStoreClient
import Foundation
public import Hummingbird
import StoreKeeperAPI

/// Every error the HTTP API answers: a status and `{"error": {"code", "message"}}`. Messages name the field
/// and value that failed and never contain secrets.
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable snake_case code.
    public var code: String
    /// What was wrong.
    public var message: String
    /// Seconds after which the same request may succeed (Apple unavailable): `retry_after` in the body and the
    /// `Retry-After` header.
    public var retryAfter: Int?

    /// Makes an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = try APIRoutes.encoder.encode(
            ErrorBody(error: ErrorDetail(code: APIErrorCode(rawValue: code), message: message, retryAfter: retryAfter)))
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Apple (or whatever stands in for it) did not answer in time or at all: 504 for a deadline, 502 otherwise,
    /// each with a `retry_after`.
    static func appleUnavailable(_ error: AppStoreClientError, call: String) -> APIError {
        var answer =
            error.code == "deadline_exceeded"
            ? APIError(.gatewayTimeout, "apple_timeout", "\(call): \(error.reason)")
            : APIError(.badGateway, "apple_unavailable", "\(call): \(error)")
        answer.retryAfter = 30
        return answer
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func unprocessable(_ code: String, _ message: String) -> APIError {
        APIError(.unprocessableContent, code, message)
    }
}
