/// An error code of the `/v1` API. Open: a code this client does not know decodes as itself, so a newer
/// server's codes never fail a client. Not a string literal: the server answers only the codes declared here.
public struct APIErrorCode: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public var rawValue: String

    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decodes the code string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Encodes the code string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The code.
    public var description: String { rawValue }

    /// 400: the body is not a JSON object.
    public static let invalidJSON = APIErrorCode(rawValue: "invalid_json")
    /// 400: a field the endpoint does not define (named in the message).
    public static let unknownField = APIErrorCode(rawValue: "unknown_field")
    /// 400: a required field is missing or empty.
    public static let missingField = APIErrorCode(rawValue: "missing_field")
    /// 400: a field has the wrong type.
    public static let invalidField = APIErrorCode(rawValue: "invalid_field")
    /// 400: the request is not valid HTTP/1.1.
    public static let malformedRequest = APIErrorCode(rawValue: "malformed_request")
    /// 401: no key, or not a valid one.
    public static let invalidAPIKey = APIErrorCode(rawValue: "invalid_api_key")
    /// 401: no `Authorization: Bearer` header.
    public static let missingAPIKey = APIErrorCode(rawValue: "missing_api_key")
    /// 403: this endpoint needs a secret key.
    public static let secretKeyRequired = APIErrorCode(rawValue: "secret_key_required")
    /// 403: the secret key's scope does not include this endpoint's (the message names the scope needed).
    public static let insufficientScope = APIErrorCode(rawValue: "insufficient_scope")
    /// 413: the body is too large.
    public static let bodyTooLarge = APIErrorCode(rawValue: "body_too_large")
    /// 422: the evidence's signature does not verify.
    public static let invalidSignature = APIErrorCode(rawValue: "invalid_signature")
    /// 422: the evidence is for another app.
    public static let unexpectedBundleID = APIErrorCode(rawValue: "unexpected_bundle_id")
    /// 502: Apple could not be reached (see `retry_after`).
    public static let appleUnavailable = APIErrorCode(rawValue: "apple_unavailable")
    /// 503: Apple's rate limit turned the request away; the same request is answered after `retry_after` seconds
    /// (Apple's `Retry-After`).
    public static let appleRateLimited = APIErrorCode(rawValue: "apple_rate_limited")
    /// 504: Apple did not answer in time (see `retry_after`).
    public static let appleTimeout = APIErrorCode(rawValue: "apple_timeout")
    /// 503: the server's database does not answer (stopped, restarting); try again after `retry_after` seconds.
    public static let databaseUnavailable = APIErrorCode(rawValue: "database_unavailable")
    /// 503: the server has its maximum of connections open.
    public static let tooManyConnections = APIErrorCode(rawValue: "too_many_connections")
    /// 400: a webhook URL that is not an absolute `http(s)` URL with a host.
    public static let invalidURL = APIErrorCode(rawValue: "invalid_url")
    /// 400: an event type StoreKeeper does not send.
    public static let invalidEventType = APIErrorCode(rawValue: "invalid_event_type")
    /// 400: a delivery status filter other than `pending`, `delivered` or `failed`.
    public static let invalidStatus = APIErrorCode(rawValue: "invalid_status")
    /// 404: no webhook endpoint of that id in the caller's project.
    public static let webhookNotFound = APIErrorCode(rawValue: "webhook_not_found")
    /// 409: the webhook endpoint is kept in the configuration file (remove it there).
    public static let webhookConfigured = APIErrorCode(rawValue: "webhook_configured")
    /// 429: too many requests of this kind (test events to one webhook endpoint); see `retry_after`.
    public static let rateLimited = APIErrorCode(rawValue: "rate_limited")
    /// 404: no webhook delivery of that id in the caller's project.
    public static let deliveryNotFound = APIErrorCode(rawValue: "delivery_not_found")

    // Requests the server cannot read or route.

    /// 400: the request could not be decoded.
    public static let invalidRequest = APIErrorCode(rawValue: "invalid_request")
    /// 400: a query parameter is missing, unknown or out of range (named in the message).
    public static let invalidParameter = APIErrorCode(rawValue: "invalid_parameter")
    /// 404: no such route.
    public static let notFound = APIErrorCode(rawValue: "not_found")
    /// 405: the route exists, not with this method.
    public static let methodNotAllowed = APIErrorCode(rawValue: "method_not_allowed")
    /// 408: a request header not complete in time.
    public static let headerTimeout = APIErrorCode(rawValue: "header_timeout")
    /// 500: an unexpected failure (details only in the server's log).
    public static let internalError = APIErrorCode(rawValue: "internal_error")
    /// 401: `GET /metrics` without the configured `metricsToken`.
    public static let invalidMetricsToken = APIErrorCode(rawValue: "invalid_metrics_token")

    // Customers, evidence and notifications.

    /// 403: the key's app is not configured on this server.
    public static let unknownApp = APIErrorCode(rawValue: "unknown_app")
    /// 400: `app_user_id` is empty, too long or has control or format characters.
    public static let invalidAppUserID = APIErrorCode(rawValue: "invalid_app_user_id")
    /// 400: `device_id` is empty, too long or has control or format characters.
    public static let invalidDeviceID = APIErrorCode(rawValue: "invalid_device_id")
    /// 400: `receipt` is not base64.
    public static let invalidReceipt = APIErrorCode(rawValue: "invalid_receipt")
    /// 400: `original_transaction_id` is not one.
    public static let invalidOriginalTransactionID = APIErrorCode(rawValue: "invalid_original_transaction_id")
    /// 400: `product_ids` is not a list of product ids.
    public static let invalidProductIDs = APIErrorCode(rawValue: "invalid_product_ids")
    /// 400 or 422: the evidence or notification is not in the shape it claims (a compact JWS, a V1 body).
    public static let malformed = APIErrorCode(rawValue: "malformed")
    /// 422: Apple's verifyReceipt refused the receipt (its status in the message).
    public static let receiptRejected = APIErrorCode(rawValue: "receipt_rejected")
    /// 422: verifyReceipt knows no account for the receipt (status 21010).
    public static let accountNotFound = APIErrorCode(rawValue: "account_not_found")
    /// 422: the receipt holds no subscription to import.
    public static let noSubscriptions = APIErrorCode(rawValue: "no_subscriptions")
    /// 422: Apple knows no transaction of that id.
    public static let transactionNotFound = APIErrorCode(rawValue: "transaction_not_found")
    /// 409: the app has no App Store Server API credentials, which this request needs.
    public static let apiCredentialsMissing = APIErrorCode(rawValue: "api_credentials_missing")
    /// 401 or 502: the shared secret does not match (a V1 notification's, or Apple's answer to ours).
    public static let sharedSecretMismatch = APIErrorCode(rawValue: "shared_secret_mismatch")
    /// 422: a notification type StoreKeeper does not know.
    public static let unknownNotificationType = APIErrorCode(rawValue: "unknown_notification_type")
    /// 400: a body that is neither a V2 `signedPayload` nor a V1 notification.
    public static let unrecognizedNotification = APIErrorCode(rawValue: "unrecognized_notification")

    // Offers, metrics, webhooks.

    /// 400: an offer request without `product_id` and `offer_id`.
    public static let invalidOffer = APIErrorCode(rawValue: "invalid_offer")
    /// 400: `app_account_token` is not a UUID.
    public static let invalidAppAccountToken = APIErrorCode(rawValue: "invalid_app_account_token")
    /// 409: the app has no subscription offer key to sign with.
    public static let offerKeyMissing = APIErrorCode(rawValue: "offer_key_missing")
    /// 404: no metric of that name.
    public static let unknownMetric = APIErrorCode(rawValue: "unknown_metric")
    /// 409: the project has its maximum of webhook endpoints.
    public static let tooManyWebhooks = APIErrorCode(rawValue: "too_many_webhooks")

    // Offerings and attributes.

    /// 400: an attribute name or value that breaks a rule (named in the message).
    public static let invalidAttribute = APIErrorCode(rawValue: "invalid_attribute")
    /// 400: the customer would hold more than 50 custom attributes.
    public static let tooManyAttributes = APIErrorCode(rawValue: "too_many_attributes")
    /// 409: the project holds app-set attributes for its maximum of customers without evidence (a public key's
    /// write for one more such customer; a secret key's, or one for a customer who bought, is taken).
    public static let tooManyGuests = APIErrorCode(rawValue: "too_many_guests")

    /// 400: an offering that breaks a rule (identifier, packages, description or metadata; named in the message).
    public static let invalidOffering = APIErrorCode(rawValue: "invalid_offering")
    /// 400: a package's product is not in the app's catalog (named in the message).
    public static let unknownProduct = APIErrorCode(rawValue: "unknown_product")
    /// 404: no offering of that identifier in the caller's project.
    public static let offeringNotFound = APIErrorCode(rawValue: "offering_not_found")
    /// 409: an offering of that identifier exists already (change it with `PUT`).
    public static let offeringExists = APIErrorCode(rawValue: "offering_exists")
    /// 409: the offering is the project's current one (make another current first).
    public static let offeringIsCurrent = APIErrorCode(rawValue: "offering_is_current")
    /// 409: a targeting rule shows the offering (change the rules first).
    public static let offeringInUse = APIErrorCode(rawValue: "offering_in_use")
    /// 400: a targeting rule that breaks a rule (named in the message).
    public static let invalidTargeting = APIErrorCode(rawValue: "invalid_targeting")
    /// A retention rule is not well formed (the message names the rule, the field and the value).
    public static let invalidRetentionRule = APIErrorCode(rawValue: "invalid_retention_rule")
    /// No retention rule answered a real-time request: Apple shows the product's default message.
    public static let noRetentionMessage = APIErrorCode(rawValue: "no_retention_message")
    /// 400: an experiment that breaks a rule (named in the message).
    public static let invalidExperiment = APIErrorCode(rawValue: "invalid_experiment")
    /// 404: no experiment of that identifier in the caller's project.
    public static let experimentNotFound = APIErrorCode(rawValue: "experiment_not_found")
    /// 409: an experiment of that identifier exists already.
    public static let experimentExists = APIErrorCode(rawValue: "experiment_exists")
    /// 409: the experiment cannot move that way (a stopped one does not start again; one runs at a time).
    public static let experimentState = APIErrorCode(rawValue: "experiment_state")
    /// 409: the project has its maximum of experiments.
    public static let tooManyExperiments = APIErrorCode(rawValue: "too_many_experiments")
    /// 409: the project has its maximum of offerings.
    public static let tooManyOfferings = APIErrorCode(rawValue: "too_many_offerings")
    /// 400: the path names an entitlement the project's catalog does not define.
    public static let unknownEntitlement = APIErrorCode(rawValue: "unknown_entitlement")
    /// 400: a grant's duration, end or reason is not one the API takes.
    public static let invalidGrant = APIErrorCode(rawValue: "invalid_grant")
    /// 404: the customer holds no grant of the entitlement in force.
    public static let grantNotFound = APIErrorCode(rawValue: "grant_not_found")
    /// 404: the project holds nothing about the customer (no purchase, event or attribute): nothing to export or
    /// erase.
    public static let customerNotFound = APIErrorCode(rawValue: "customer_not_found")
    /// 400: an extension's days or reason is not one Apple takes (1–90 days; undeclared, customer_satisfaction,
    /// other, service_issue).
    public static let invalidExtension = APIErrorCode(rawValue: "invalid_extension")
    /// 409: the subscription was already extended twice in the last 365 days (Apple's limit).
    public static let extensionLimitReached = APIErrorCode(rawValue: "extension_limit_reached")
    /// 409: Apple refused to extend the subscription in its state (a free offer period, billing retry, a lapsed
    /// grace period, expired, or shared through Family Sharing).
    public static let extensionRefused = APIErrorCode(rawValue: "extension_refused")
    /// 404: the project made no mass extension of that id.
    public static let extensionNotFound = APIErrorCode(rawValue: "extension_not_found")

    // Evidence that does not verify (AppStoreVerification's codes, one each).

    /// 422: the JWS header's `alg` is missing or not ES256.
    public static let algorithmNotAllowed = APIErrorCode(rawValue: "algorithm_not_allowed")
    /// 422: the chain does not end at a pinned root (look-alike or self-made chains).
    public static let untrustedRoot = APIErrorCode(rawValue: "untrusted_root")
    /// 422: the chain's own signatures or structure do not hold (e.g. a foreign leaf under Apple's intermediate).
    public static let invalidChain = APIErrorCode(rawValue: "invalid_chain")
    /// 422: the `x5c` header does not hold exactly the expected number of certificates.
    public static let wrongChainLength = APIErrorCode(rawValue: "wrong_chain_length")
    /// 422: an intermediate or leaf lacks Apple's marker OID.
    public static let missingAppleExtension = APIErrorCode(rawValue: "missing_apple_extension")
    /// 422: a certificate is not valid at the validation time.
    public static let certificateExpired = APIErrorCode(rawValue: "certificate_not_valid_at_time")
    /// 422: a certificate could not be parsed.
    public static let malformedCertificate = APIErrorCode(rawValue: "malformed_certificate")
    /// 422: the signature is valid but the payload is not the expected JSON.
    public static let malformedPayload = APIErrorCode(rawValue: "malformed_payload")
    /// 422: Xcode-signed data reached a verifier that does not accept it.
    public static let xcodeNotAllowed = APIErrorCode(rawValue: "xcode_not_allowed")
    /// 422: the environment differs from the expected one.
    public static let unexpectedEnvironment = APIErrorCode(rawValue: "unexpected_environment")
    /// 422: the app Apple id differs from the expected one.
    public static let unexpectedAppAppleID = APIErrorCode(rawValue: "unexpected_app_apple_id")
    /// 422: the app version differs from the expected one.
    public static let unexpectedAppVersion = APIErrorCode(rawValue: "unexpected_app_version")
    /// 422: the receipt's SHA-1 device hash does not match the device.
    public static let deviceHashMismatch = APIErrorCode(rawValue: "device_hash_mismatch")
    /// 422: the PKCS#7 content or signature algorithm is one we do not accept.
    public static let unsupportedAlgorithm = APIErrorCode(rawValue: "unsupported_algorithm")
    /// 422: the input is too large to be evidence.
    public static let inputTooLarge = APIErrorCode(rawValue: "input_too_large")

    /// Every code declared above, in declaration order: the list the OpenAPI document gives (a test holds it to the
    /// declarations).
    public static let declared: [APIErrorCode] = [
        .invalidJSON, .unknownField, .missingField, .invalidField, .malformedRequest, .invalidAPIKey, .missingAPIKey,
        .secretKeyRequired, .insufficientScope, .bodyTooLarge, .invalidSignature, .unexpectedBundleID,
        .appleUnavailable, .appleRateLimited, .appleTimeout, .databaseUnavailable, .tooManyConnections, .invalidURL,
        .invalidEventType, .invalidStatus, .webhookNotFound, .webhookConfigured, .rateLimited, .deliveryNotFound,
        .invalidRequest, .invalidParameter, .notFound, .methodNotAllowed, .headerTimeout, .internalError,
        .invalidMetricsToken, .unknownApp, .invalidAppUserID, .invalidDeviceID, .invalidReceipt,
        .invalidOriginalTransactionID, .invalidProductIDs, .malformed, .receiptRejected, .accountNotFound,
        .noSubscriptions, .transactionNotFound, .apiCredentialsMissing, .sharedSecretMismatch, .unknownNotificationType,
        .unrecognizedNotification, .invalidOffer, .invalidAppAccountToken, .offerKeyMissing, .unknownMetric,
        .tooManyWebhooks, .invalidAttribute, .tooManyAttributes, .tooManyGuests, .invalidOffering, .unknownProduct,
        .offeringNotFound, .offeringExists, .offeringIsCurrent, .offeringInUse, .invalidTargeting,
        .invalidRetentionRule, .noRetentionMessage, .invalidExperiment, .experimentNotFound, .experimentExists,
        .experimentState, .tooManyExperiments, .tooManyOfferings, .unknownEntitlement, .invalidGrant, .grantNotFound,
        .customerNotFound, .invalidExtension, .extensionLimitReached, .extensionRefused, .extensionNotFound,
        .algorithmNotAllowed, .untrustedRoot, .invalidChain, .wrongChainLength, .missingAppleExtension,
        .certificateExpired, .malformedCertificate, .malformedPayload, .xcodeNotAllowed, .unexpectedEnvironment,
        .unexpectedAppAppleID, .unexpectedAppVersion, .deviceHashMismatch, .unsupportedAlgorithm, .inputTooLarge,
    ]
}
