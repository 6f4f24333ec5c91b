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

    /// The simulator's error codes; each is written as its snake_case raw value.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case alreadyRefunded = "already_refunded"
        case alreadySubscribed = "already_subscribed"
        case badRequest = "bad_request"
        case clockNotManual = "clock_not_manual"
        case invalidAnswer = "invalid_answer"
        case invalidBillingPlan = "invalid_billing_plan"
        case invalidBundleId = "invalid_bundle_id"
        case invalidCustomer = "invalid_customer"
        case invalidDays = "invalid_days"
        case invalidDuration = "invalid_duration"
        case invalidField = "invalid_field"
        case invalidGracePeriod = "invalid_grace_period"
        case invalidJson = "invalid_json"
        case invalidOffer = "invalid_offer"
        case invalidOfferSignature = "invalid_offer_signature"
        case invalidParameter = "invalid_parameter"
        case invalidProduct = "invalid_product"
        case invalidReplacement = "invalid_replacement"
        case invalidRequest = "invalid_request"
        case missingCustomer = "missing_customer"
        case missingField = "missing_field"
        case noGeneratedKey = "no_generated_key"
        case noOffer = "no_offer"
        case noPriceIncrease = "no_price_increase"
        case noRefundRequest = "no_refund_request"
        case noSubscription = "no_subscription"
        case notActive = "not_active"
        case notEligible = "not_eligible"
        case notFamilyShared = "not_family_shared"
        case notFound = "not_found"
        case notInBillingRetry = "not_in_billing_retry"
        case notRefunded = "not_refunded"
        case offerKeyUnknown = "offer_key_unknown"
        case offerNonceReused = "offer_nonce_reused"
        case offerSignatureExpired = "offer_signature_expired"
        case offerSignatureMissing = "offer_signature_missing"
        case signingFailed = "signing_failed"
        case unknownWorldFormat = "unknown_world_format"
        case unreadableWorld = "unreadable_world"
        case unwritableWorld = "unwritable_world"
    }

    /// A stable code.
    public var code: Code
    /// What kind of refusal.
    public var kind: Kind
    /// What was wrong, naming the field and value.
    public var reason: String

    /// Makes an error.
    public init(_ code: Code, _ reason: String, kind: Kind = .invalid) {
        self.code = code
        self.reason = reason
        self.kind = kind
    }

    /// `code: reason`.
    public var description: String { "\(code.rawValue): \(reason)" }

    static func notFound(_ what: String, _ value: String) -> SimulatorError {
        SimulatorError(.notFound, "\(what) \"\(value)\" does not exist", kind: .notFound)
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
    /// InvalidExtendByDaysError: not 1–90 days.
    static let invalidExtendByDays = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_009, errorMessage: "Invalid extend by days value.")
    /// InvalidExtendReasonCodeError: not 0–3.
    static let invalidExtendReasonCode = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_010, errorMessage: "Invalid extend reason code.")
    /// SubscriptionExtensionIneligibleError: a free offer period, billing retry, a lapsed grace period, expired.
    static let subscriptionExtensionIneligible = AppStoreAPIError(
        httpStatus: 403, errorCode: 4_030_004, errorMessage: "Forbidden - subscription state ineligible for extension.")
    /// SubscriptionMaxExtensionError: extended twice in the last 365 days.
    static let subscriptionMaxExtension = AppStoreAPIError(
        httpStatus: 403, errorCode: 4_030_005,
        errorMessage: "Forbidden - subscription has reached maximum extension count.")
    /// InvalidCustomerConsentedError: the customer's consent is missing or not given.
    static let invalidCustomerConsented = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_035, errorMessage: "Invalid request. The customer consented field is invalid."
    )
    /// InvalidDeliveryStatusError: not one of the delivery statuses.
    static let invalidDeliveryStatus = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_036, errorMessage: "Invalid request. The delivery status field is invalid.")
    /// InvalidSampleContentProvidedError: missing or not a Boolean.
    static let invalidSampleContentProvided = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_041,
        errorMessage: "Invalid request. The sample content provided field is invalid.")
    /// Apple's general 400: a body or parameter it cannot read.
    public static let invalidRequest = AppStoreAPIError(
        httpStatus: 400, errorCode: 4_000_000, errorMessage: "Invalid request.")
}
