/// Set App Account Token: the request body.
public struct UpdateAppAccountTokenRequest: Codable, Sendable, Hashable {
    /// The UUID the app associates with the customer (lowercase).
    @Lenient public var appAccountToken: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
