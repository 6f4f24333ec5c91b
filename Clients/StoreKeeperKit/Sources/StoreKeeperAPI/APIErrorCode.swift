/// An error code of the `/v1` API. Open: a code this client does not know decodes as itself, so a newer
/// server's codes never fail a client.
public struct APIErrorCode: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The code.
    public var rawValue: String

    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a code literal.
    public init(stringLiteral value: String) { rawValue = value }

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
    public static let invalidJSON: APIErrorCode = "invalid_json"
    /// 400: a field the endpoint does not define (named in the message).
    public static let unknownField: APIErrorCode = "unknown_field"
    /// 400: a required field is missing or empty.
    public static let missingField: APIErrorCode = "missing_field"
    /// 400: a field has the wrong type.
    public static let invalidField: APIErrorCode = "invalid_field"
    /// 400: the request is not valid HTTP/1.1.
    public static let malformedRequest: APIErrorCode = "malformed_request"
    /// 401: no key, or not a valid one.
    public static let invalidAPIKey: APIErrorCode = "invalid_api_key"
    /// 401: no `Authorization: Bearer` header.
    public static let missingAPIKey: APIErrorCode = "missing_api_key"
    /// 403: this endpoint needs a secret key.
    public static let secretKeyRequired: APIErrorCode = "secret_key_required"
    /// 413: the body is too large.
    public static let bodyTooLarge: APIErrorCode = "body_too_large"
    /// 422: the evidence's signature does not verify.
    public static let invalidSignature: APIErrorCode = "invalid_signature"
    /// 422: the evidence is for another app.
    public static let unexpectedBundleID: APIErrorCode = "unexpected_bundle_id"
    /// 502: Apple could not be reached (see `retry_after`).
    public static let appleUnavailable: APIErrorCode = "apple_unavailable"
    /// 504: Apple did not answer in time (see `retry_after`).
    public static let appleTimeout: APIErrorCode = "apple_timeout"
    /// 503: the server's database does not answer (stopped, restarting); try again after `retry_after` seconds.
    public static let databaseUnavailable: APIErrorCode = "database_unavailable"
    /// 503: the server has its maximum of connections open.
    public static let tooManyConnections: APIErrorCode = "too_many_connections"
    /// 400: a webhook URL that is not an absolute `http(s)` URL with a host.
    public static let invalidURL: APIErrorCode = "invalid_url"
    /// 400: an event type StoreKeeper does not send.
    public static let invalidEventType: APIErrorCode = "invalid_event_type"
    /// 400: a delivery status filter other than `pending`, `delivered` or `failed`.
    public static let invalidStatus: APIErrorCode = "invalid_status"
    /// 404: no webhook endpoint of that id in the caller's project.
    public static let webhookNotFound: APIErrorCode = "webhook_not_found"
    /// 409: the webhook endpoint is kept in the configuration file (remove it there).
    public static let webhookConfigured: APIErrorCode = "webhook_configured"
    /// 429: too many requests of this kind (test events to one webhook endpoint); see `retry_after`.
    public static let rateLimited: APIErrorCode = "rate_limited"
    /// 404: no webhook delivery of that id in the caller's project.
    public static let deliveryNotFound: APIErrorCode = "delivery_not_found"
}
