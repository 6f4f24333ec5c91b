/// Why a call to Apple (or the simulator) failed.
public struct AppStoreClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, as a stable code (its raw value is the snake_case word logs and answers show).
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case deadlineExceeded = "deadline_exceeded"
        case httpStatus = "http_status"
        case invalidAnswer = "invalid_answer"
        case malformedResponse = "malformed_response"
        case rateLimited = "rate_limited"
        case transport = "transport"
        case verifyReceiptStatus = "verify_receipt_status"
    }

    /// Why: `rateLimited` is Apple's 429 (``retryAfter`` says when it answers again).
    public var code: Code
    /// verifyReceipt's status or the HTTP status, when there is one.
    public var status: Int?
    /// What happened.
    public var reason: String

    /// Makes an error.
    public init(code: Code, status: Int? = nil, reason: String, retryAfter: Double? = nil) {
        self.code = code
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// Seconds from now until Apple answers again (its `Retry-After` on a 429, a UNIX time in milliseconds), when
    /// it said.
    public var retryAfter: Double?
    /// The App Store Server API's `errorCode` (e.g. 4040010), when its answer carried one.
    public var appleErrorCode: Int?

    /// Whether Apple answered that this environment does not know the transaction (404 with 4040010
    /// TransactionIdNotFound or 4040005 OriginalTransactionIdNotFound): the other environment may.
    public var isUnknownTransaction: Bool { status == 404 && [4_040_010, 4_040_005].contains(appleErrorCode ?? 0) }

    /// `code (status): reason`.
    public var description: String { "\(code.rawValue)\(status.map { " (\($0))" } ?? ""): \(reason)" }
}
