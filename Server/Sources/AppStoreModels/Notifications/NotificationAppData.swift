/// The `appData` of a notification about the app rather than a purchase (`RESCIND_CONSENT`): the app and the
/// customer's signed app transaction.
public struct NotificationAppData: Codable, Sendable, Hashable {
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The environment.
    @Lenient public var environment: AppStoreEnvironment?
    /// The customer's app transaction (JWS), which names them by `appTransactionId`.
    @Lenient public var signedAppTransactionInfo: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
