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

extension GrantPost: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true, description: "Exactly one of duration and expires_at")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .duration: .optional(.oneOf(["P3D", "P1W", "P1M", "P3M", "P6M", "P1Y", "lifetime"]))
        case .expiresAt: .optional(.dateTime.described("ISO 8601, after now"))
        case .reason: .optional(.text.length(0...500))
        }
    }
}
