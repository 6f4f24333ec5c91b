/// Extend Subscription Renewal Dates for All Active Subscribers: the request body.
public struct MassExtendRenewalDateRequest: Codable, Sendable, Hashable {
    /// Days to extend by (at most 90).
    @Lenient public var extendByDays: Int?
    /// 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue.
    @Lenient public var extendReasonCode: Int?
    /// A UUID identifying the request (its status is asked for by it).
    @Lenient public var requestIdentifier: String?
    /// The auto-renewable product whose subscribers are extended.
    @Lenient public var productId: String?
    /// Only subscribers in these storefronts (alpha-3); all when absent.
    public var storefrontCountryCodes: [String]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
