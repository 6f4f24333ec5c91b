import Logging

/// What code deeper in a request may know about the request it serves: its logger, which carries the request id
/// (`hb.request.id`), so every line logged on the request's behalf — not only the request line — names it.
enum RequestScope {
    /// The current request's logger (set by ``RequestLogMiddleware``); `nil` outside a request.
    @TaskLocal static var logger: Logger?
}
