/// The `summary` of a mass renewal-date extension notification.
public struct NotificationSummary: Codable, Sendable, Hashable {
    /// The environment.
    @Lenient public var environment: AppStoreEnvironment?
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The extended product.
    @Lenient public var productId: String?
    /// The mass extension request id.
    @Lenient public var requestIdentifier: String?
    /// Storefront country codes the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    @Lenient public var succeededCount: Int64?
    /// How many could not be extended.
    @Lenient public var failedCount: Int64?

    /// Makes an empty summary.
    public init() {}
}
