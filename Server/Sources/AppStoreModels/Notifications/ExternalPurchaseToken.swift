/// The `externalPurchaseToken` of an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct ExternalPurchaseToken: Codable, Sendable, Hashable {
    /// The token's id.
    @Lenient public var externalPurchaseId: String?
    /// When the token was created, in milliseconds.
    @Lenient public var tokenCreationDate: Int64?
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// The bundle identifier.
    @Lenient public var bundleId: String?

    /// Makes an empty token.
    public init() {}
}
