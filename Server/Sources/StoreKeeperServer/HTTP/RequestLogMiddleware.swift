import Foundation
import Hummingbird
import Logging

/// One log line per request at `info`: method, path (without the query), status, duration and the request id
/// (the logger's `hb.request.id`), and the error code of an error answer. Never a header, a body or a query
/// string, so never a key or a receipt. Costs nothing below `info`. It also hands the request's logger to the
/// code the request runs (``RequestScope``).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Lines logged deeper on this request's behalf carry its request id too.
        try await RequestScope.$logger.withValue(context.logger) { try await logged(request, context, next) }
    }

    func logged(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard context.logger.logLevel <= .info else { return try await next(request, context) }
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, since: start, error: nil)
            return response
        } catch let error as APIError {
            log(request, context, status: error.status.code, since: start, error: error.code.rawValue)
            throw error
        } catch let error as any HTTPResponseError {
            log(request, context, status: error.status.code, since: start, error: nil)
            throw error
        } catch {
            log(request, context, status: 500, since: start, error: "internal_error")
            throw error
        }
    }

    func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant, error: String?)
    {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
            "duration_ms": "\(String(format: "%.2f", milliseconds))",
        ]
        if let error { metadata["error"] = "\(error)" }
        context.logger.info("request", metadata: metadata)
    }
}
