import Foundation
public import Hummingbird
public import StoreKeeperAPI

/// Every error the HTTP API answers: a status and `{"error": {"code", "message"}}`. Messages name the field
/// and value that failed and never contain secrets.
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable snake_case code.
    public var code: APIErrorCode
    /// What was wrong.
    public var message: String
    /// Seconds after which the same request may succeed (Apple unavailable): `retry_after` in the body and the
    /// `Retry-After` header.
    public var retryAfter: Int?

    /// Makes an error.
    public init(_ status: HTTPResponse.Status, _ code: APIErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = Self.body(code: code, message: message, retryAfter: retryAfter)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The error body every answer uses, the HTTP edges' raw answers included.
    static func body(code: APIErrorCode, message: String, retryAfter: Int? = nil) -> Data {
        let body = ErrorBody(
            error: ErrorDetail(code: code, message: message, retryAfter: retryAfter))
        // Strings, an optional integer: encoding cannot fail.
        return (try? APICall.encoder.encode(body)) ?? Data()
    }

    /// The answer to a service failure: the one place a failure's kind becomes an HTTP status.
    init(_ error: ServiceError) {
        let status: HTTPResponse.Status =
            switch error.kind {
            case .invalidInput: .badRequest
            case .unknownApp: .forbidden
            case .unverifiable: .unprocessableContent
            case .unauthenticated: .unauthorized
            case .forbidden: .forbidden
            case .missingConfiguration, .conflict: .conflict
            case .notFound: .notFound
            case .rateLimited: .tooManyRequests
            case .appleRefused, .appleUnavailable: .badGateway
            case .appleTimeout: .gatewayTimeout
            case .appleRateLimited: .serviceUnavailable
            }
        self.init(status, error.code, error.message)
        retryAfter = error.retryAfter
    }

    static func badRequest(_ code: APIErrorCode, _ message: String) -> APIError { APIError(.badRequest, code, message) }
}
