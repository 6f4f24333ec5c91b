import AppStoreClient
import StoreKeeperAPI

/// Why the subscriber service refused or could not serve a request, in its own terms: what kind of failure, a
/// stable code and a message naming the field and value. No HTTP here: the routes layer maps a kind to a status
/// (``APIError/init(_:)``), once.
struct ServiceError: Error, Hashable, Sendable {
    /// What kind of failure.
    enum Kind: Hashable, Sendable {
        /// The input is malformed or out of bounds.
        case invalidInput
        /// The caller's app is not configured.
        case unknownApp
        /// The evidence does not verify, or Apple says it is not valid.
        case unverifiable
        /// The caller did not prove who it is (a V1 notification's shared secret, the metrics token).
        case unauthenticated
        /// The caller's key may not do this (a public key merging a customer who has purchases).
        case forbidden
        /// The request needs configuration the app lacks (an offer key).
        case missingConfiguration
        /// What the request names does not exist in the caller's project (an experiment, a webhook delivery).
        case notFound
        /// The request is well formed but the project's state refuses it now (a limit reached, a name taken, an
        /// experiment that is not in the state the request needs).
        case conflict
        /// The caller asked too often; the same request succeeds after `retryAfter`.
        case rateLimited
        /// Apple refused our credentials (a shared secret that does not match).
        case appleRefused
        /// Apple could not be reached or kept failing.
        case appleUnavailable
        /// Apple did not answer within the deadline.
        case appleTimeout
        /// Apple's rate limit: the same request succeeds after `retryAfter`.
        case appleRateLimited
    }

    /// What kind of failure.
    var kind: Kind
    /// A stable snake_case code.
    var code: APIErrorCode
    /// What was wrong (never a secret).
    var message: String
    /// Seconds after which the same request may succeed.
    var retryAfter: Int?

    init(_ kind: Kind, _ code: APIErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    static func invalid(_ code: APIErrorCode, _ message: String) -> ServiceError {
        ServiceError(.invalidInput, code, message)
    }
    static func unverifiable(_ code: APIErrorCode, _ message: String) -> ServiceError {
        ServiceError(.unverifiable, code, message)
    }

    /// Apple (or whatever stands in for it) did not answer in time, or at all; after Apple's rate limit, the
    /// caller may retry when Apple said it answers again (its `Retry-After`).
    static func apple(_ error: AppStoreClientError, call: String) -> ServiceError {
        if error.code == .deadlineExceeded {
            return ServiceError(.appleTimeout, .appleTimeout, "\(call): \(error.reason)", retryAfter: 30)
        }
        if error.status == 429, let wait = error.retryAfter {
            return ServiceError(
                .appleRateLimited, .appleRateLimited, "\(call): \(error.reason)",
                retryAfter: max(1, Int(wait.rounded(.up))))
        }
        return ServiceError(.appleUnavailable, .appleUnavailable, "\(call): \(error)", retryAfter: 30)
    }
}
