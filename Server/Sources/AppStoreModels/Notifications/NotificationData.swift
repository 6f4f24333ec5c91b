/// The `data` object of a V2 notification: which app, and the signed transaction and renewal info.
public struct NotificationData: Codable, Sendable, Hashable {
    /// The environment the notification is for.
    @Lenient public var environment: AppStoreEnvironment?
    /// The app's Apple id (absent in sandbox).
    @Lenient public var appAppleId: Int64?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The app's build version.
    @Lenient public var bundleVersion: String?
    /// A signed transaction (JWS).
    @Lenient public var signedTransactionInfo: String?
    /// Signed renewal info (JWS).
    @Lenient public var signedRenewalInfo: String?
    /// The subscription's status after this event.
    @Lenient public var status: SubscriptionStatus?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST`).
    @Lenient public var consumptionRequestReason: ConsumptionRequestReason?

    /// Makes empty data.
    public init() {}
}
