/// Why a call to Apple (or the simulator) failed.
public struct AppStoreClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable code: `verify_receipt_status`, `http_status`, `transport`, `deadline_exceeded`, `malformed_response`.
    public var code: String
    /// verifyReceipt's status or the HTTP status, when there is one.
    public var status: Int?
    /// What happened.
    public var reason: String

    /// Makes an error.
    public init(code: String, status: Int? = nil, reason: String, retryAfter: Double? = nil) {
        self.code = code
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// Seconds Apple asked to wait before calling again (its `Retry-After` on a 429), when it said.
    public var retryAfter: Double?

    /// `code (status): reason`.
    public var description: String { "\(code)\(status.map { " (\($0))" } ?? ""): \(reason)" }
}
