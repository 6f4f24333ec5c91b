/// The meaning of verifyReceipt's `status` codes.
public enum VerifyReceiptStatus {
    /// The receipt is valid (an expired subscription in a valid receipt is still 0).
    public static let valid = 0
    /// The request was not a POST, or its JSON could not be read.
    public static let badRequest = 21000
    /// `receipt-data` was malformed, or a temporary issue: retry.
    public static let malformedReceipt = 21002
    /// The receipt could not be authenticated.
    public static let notAuthenticated = 21003
    /// The shared secret does not match.
    public static let sharedSecretMismatch = 21004
    /// The receipt server is temporarily unavailable: retry.
    public static let serverUnavailable = 21005
    /// Valid, but the subscription has expired (iOS 6-style receipts).
    public static let subscriptionExpired = 21006
    /// A sandbox receipt was sent to production: retry against sandbox.
    public static let sandboxReceiptInProduction = 21007
    /// A production receipt was sent to sandbox: retry against production.
    public static let productionReceiptInSandbox = 21008
    /// Internal data access error: retry.
    public static let internalError = 21009
    /// The account was not found or was deleted: treat as never purchased.
    public static let accountNotFound = 21010

    /// Whether Apple documents the status as temporary.
    /// - Parameter status: A status code.
    /// - Returns: `true` for 21002, 21005, 21009 and 21100–21199.
    public static func isRetryable(_ status: Int) -> Bool {
        [malformedReceipt, serverUnavailable, internalError].contains(status) || (21100...21199).contains(status)
    }

    /// A short English explanation of a status.
    /// - Parameter status: A status code.
    /// - Returns: What Apple says it means.
    public static func explanation(_ status: Int) -> String {
        switch status {
        case valid: "valid"
        case badRequest: "the request was not a POST or its JSON could not be read"
        case malformedReceipt: "receipt-data was malformed, or a temporary issue"
        case notAuthenticated: "the receipt could not be authenticated"
        case sharedSecretMismatch: "the shared secret does not match"
        case serverUnavailable: "the receipt server is temporarily unavailable"
        case subscriptionExpired: "valid, but the subscription has expired"
        case sandboxReceiptInProduction: "a sandbox receipt was sent to production"
        case productionReceiptInSandbox: "a production receipt was sent to sandbox"
        case internalError: "internal data access error"
        case accountNotFound: "the account was not found or was deleted"
        case 21100...21199: "internal data access error"
        default: "unknown status \(status)"
        }
    }
}
