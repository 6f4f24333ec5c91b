/// Get All Subscription Statuses: every subscription group of the customer with its latest transactions.
public struct StatusResponse: Codable, Sendable, Hashable {
    /// The environment.
    @Lenient public var environment: AppStoreEnvironment?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// One item per subscription group.
    public var data: [SubscriptionGroupIdentifierItem]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
