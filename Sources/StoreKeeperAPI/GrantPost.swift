/// The body of `POST /v1/subscribers/{id}/entitlements/{entitlement}/grants`: how long, and why. Exactly one of
/// ``duration`` and ``expiresAt``.
public struct GrantPost: Codable, Sendable, Hashable {
    /// `P3D`, `P1W`, `P1M`, `P3M`, `P6M`, `P1Y` (from now, on the server's clock) or `lifetime`.
    public var duration: String?
    /// The end as an ISO 8601 date-time (`2027-01-31T00:00:00Z`), after now.
    public var expiresAt: String?
    /// Why (at most 500 characters), kept with the grant and shown in its explanation.
    public var reason: String?

    /// Makes a request.
    public init(duration: String? = nil, expiresAt: String? = nil, reason: String? = nil) {
        self.duration = duration
        self.expiresAt = expiresAt
        self.reason = reason
    }

    /// The wire names: the only fields the endpoint accepts.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case duration, expiresAt = "expires_at", reason
    }
}
