public import Hummingbird
import Foundation

/// Every error the HTTP API answers: a status and `{"error": {"code", "message"}}`. Messages name the field
/// and value that failed and never contain secrets.
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable snake_case code.
    public var code: String
    /// What was wrong.
    public var message: String

    /// Makes an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONSerialization.data(
            withJSONObject: ["error": ["code": code, "message": message]], options: [.sortedKeys])
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func unprocessable(_ code: String, _ message: String) -> APIError { APIError(.unprocessableContent, code, message) }
}
