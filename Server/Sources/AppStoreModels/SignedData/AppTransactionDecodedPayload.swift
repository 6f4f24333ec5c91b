public import Foundation

/// The payload of a signed app transaction (the StoreKit 2 replacement for the app receipt's app fields).
public struct AppTransactionDecodedPayload: Codable, Sendable, Hashable {
    /// The receipt type (`Production`, `Sandbox`, `Xcode`).
    @Lenient public var receiptType: AppStoreEnvironment?
    /// The app's Apple id.
    @Lenient public var appAppleId: Int64?
    /// The bundle identifier.
    @Lenient public var bundleId: String?
    /// The app version the transaction refers to.
    @Lenient public var applicationVersion: String?
    /// The version's external identifier.
    @Lenient public var versionExternalIdentifier: Int64?
    /// When the receipt was created.
    @Lenient public var receiptCreationDate: Date?
    /// When the app was first bought.
    @Lenient public var originalPurchaseDate: Date?
    /// The version first bought.
    @Lenient public var originalApplicationVersion: String?
    /// A device verification value.
    @Lenient public var deviceVerification: String?
    /// The nonce used for `deviceVerification`.
    @Lenient public var deviceVerificationNonce: String?
    /// When the app was pre-ordered.
    @Lenient public var preorderDate: Date?
    /// When Apple signed this payload.
    @Lenient public var signedDate: Date?
    /// The app transaction's id.
    @Lenient public var appTransactionId: String?
    /// The platform the app was first bought on.
    @Lenient public var originalPlatform: String?
    /// The environment.
    @Lenient public var environment: AppStoreEnvironment?

    /// Makes an empty payload.
    public init() {}
}
