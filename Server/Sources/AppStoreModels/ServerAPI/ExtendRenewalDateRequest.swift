/// Extend a Subscription Renewal Date request body.
public struct ExtendRenewalDateRequest: Codable, Sendable, Hashable {
    /// Days to extend by (at most 90).
    @Lenient public var extendByDays: Int?
    /// 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue.
    @Lenient public var extendReasonCode: Int?
    /// A UUID identifying the request.
    @Lenient public var requestIdentifier: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
