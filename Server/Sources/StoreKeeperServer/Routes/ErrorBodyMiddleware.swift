import Foundation
import Hummingbird
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperStorage

/// Makes every error answer `{"error": {"code", "message"}}`: Hummingbird's own errors (404 for unknown
/// routes, 413 for oversized bodies) and anything unexpected (500, without internals).
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as ServiceError {
            throw APIError(error)
        } catch let error as any HTTPResponseError {
            let code: APIErrorCode =
                switch error.status {
                case .notFound: .notFound
                case .contentTooLarge: .bodyTooLarge
                case .methodNotAllowed: .methodNotAllowed
                default: error.status.code < 500 ? .invalidRequest : .internalError
                }
            throw APIError(error.status, code, error.status.reasonPhrase)
        } catch is DatabaseUnavailable {
            // The database logs the outage once; a request only says to come back.
            var answer = APIError(
                .serviceUnavailable, .databaseUnavailable, "the database does not answer; try again shortly")
            answer.retryAfter = 5
            throw answer
        } catch let error as HTTPParserError {
            // A body that is not valid HTTP (a malformed chunk size): the client's fault, and the connection's end.
            throw APIError(.badRequest, .malformedRequest, "the request is not valid HTTP/1.1: \(error)")
        } catch is DecodingError {
            throw APIError(.badRequest, .invalidRequest, "the request could not be decoded")
        } catch {
            context.logger.error("unexpected error: \(String(describing: type(of: error)))")
            throw APIError(.internalServerError, .internalError, "an internal error occurred")
        }
    }
}
