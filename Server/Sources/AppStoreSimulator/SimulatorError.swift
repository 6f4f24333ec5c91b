/// Why a control or API request was refused: what kind of refusal, a code, and a reason naming the field. No
/// HTTP here: the simulator's server maps a kind to a status.
public struct SimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal.
    public enum Kind: Hashable, Sendable {
        /// The request is malformed or out of bounds.
        case invalid
        /// What it names does not exist.
        case notFound
        /// It cannot be done in the current state (a purchase of an active subscription…).
        case conflict
        /// The simulator failed to do it (signing).
        case failed
    }

    /// A stable snake_case code.
    public var code: String
    /// What kind of refusal.
    public var kind: Kind
    /// What was wrong, naming the field and value.
    public var reason: String

    /// Makes an error.
    public init(_ code: String, _ reason: String, kind: Kind = .invalid) {
        self.code = code
        self.reason = reason
        self.kind = kind
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    static func notFound(_ what: String, _ value: String) -> SimulatorError {
        SimulatorError("not_found", "\(what) \"\(value)\" does not exist", kind: .notFound)
    }
}

/// An App Store Server API error, in Apple's body shape `{errorCode, errorMessage}`.
public struct AppStoreAPIError: Error, Hashable, Sendable {
    /// The HTTP status.
    public var httpStatus: Int
    /// Apple's numeric code.
    public var errorCode: Int64
    /// Apple's message.
    public var errorMessage: String

    static let transactionNotFound = AppStoreAPIError(
        httpStatus: 404, errorCode: 4_040_010, errorMessage: "Transaction id not found.")
    static let invalidTransactionID = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_006, errorMessage: "Invalid transaction id.")
    static let originalTransactionNotFound = AppStoreAPIError(
        httpStatus: 404, errorCode: 4_040_005, errorMessage: "Original transaction id not found.")
    static let unauthorized = AppStoreAPIError(httpStatus: 401, errorCode: 4_010_000, errorMessage: "Unauthenticated")
    /// Apple's general 400: a body or parameter it cannot read.
    public static let invalidRequest = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_000, errorMessage: "Invalid request.")
}
