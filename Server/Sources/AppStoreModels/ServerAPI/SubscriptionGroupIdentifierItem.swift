/// One subscription group in a ``StatusResponse``.
public struct SubscriptionGroupIdentifierItem: Codable, Sendable, Hashable {
    /// The group.
    @Lenient public var subscriptionGroupIdentifier: String?
    /// The latest transaction of each subscription in the group.
    public var lastTransactions: [LastTransactionsItem]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
