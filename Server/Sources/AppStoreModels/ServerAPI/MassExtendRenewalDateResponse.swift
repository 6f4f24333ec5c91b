/// Extend Subscription Renewal Dates for All Active Subscribers: the answer.
public struct MassExtendRenewalDateResponse: Codable, Sendable, Hashable {
    /// The request's identifier, as sent.
    @Lenient public var requestIdentifier: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
