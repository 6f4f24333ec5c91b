/// An app registered with the simulator: identity, secrets, where notifications go, and its catalog.
public struct SimulatedApp: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The bundle identifier.
    public var bundleID: String
    /// The app's Apple id.
    public var appAppleID: Int64
    /// The shared secret (verifyReceipt `password`, V1 notifications). Never printed.
    public var sharedSecret: String
    /// Where V2 notifications are POSTed, if anywhere.
    public var notificationURL: String?
    /// Where V1 notifications are POSTed, if anywhere.
    public var notificationV1URL: String?
    /// The App Store Connect API key id accepted by the Server API.
    public var apiKeyID: String
    /// The API issuer id.
    public var issuerID: String
    /// The API public key (PEM, P-256) the Server API checks JWTs with.
    public var apiPublicKeyPEM: String?
    /// Billing grace period in days: 0 (off), 3, 16 or 28.
    public var gracePeriodDays: Int
    /// The products.
    public var products: [SimulatedProduct]
    /// Whether notifications reach the app (`deliver`, the default) or are lost (`drop`: recorded in the
    /// history with a failed send attempt and never delivered, as when Apple cannot reach a server).
    public var notificationDelivery: NotificationDelivery?

    /// Where Retention Messaging real-time requests go (Apple's Configure Realtime URL), if anywhere.
    public var realtimeURL: String?
    /// The app's uploaded retention messages, by message identifier, with their review state.
    public var retentionMessages: [String: SimulatedRetentionMessage]?
    /// The app's uploaded retention images, by image identifier, with their review state.
    public var retentionImages: [String: SimulatedRetentionImage]?
    /// Default retention messages by product id and locale (`product` + newline + `locale`).
    public var defaultRetentionMessages: [String: String]?

    /// Whether the simulator's notifications reach an app.
    public enum NotificationDelivery: String, Sendable, Hashable, Codable, CaseIterable {
        /// Delivered (and retried on Apple's schedule after a failure).
        case deliver
        /// Lost: recorded with a failed send attempt, never delivered.
        case drop
    }

    /// Makes an app.
    public init(
        bundleID: String, appAppleID: Int64, sharedSecret: String, notificationURL: String? = nil,
        notificationV1URL: String? = nil, apiKeyID: String = "SIMKEY0001",
        issuerID: String = "57246542-96fe-1a63-e053-0824d011072a",
        apiPublicKeyPEM: String? = nil, gracePeriodDays: Int = 16, products: [SimulatedProduct] = []
    ) {
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.sharedSecret = sharedSecret
        self.notificationURL = notificationURL
        self.notificationV1URL = notificationV1URL
        self.apiKeyID = apiKeyID
        self.issuerID = issuerID
        self.apiPublicKeyPEM = apiPublicKeyPEM
        self.gracePeriodDays = gracePeriodDays
        self.products = products
    }

    /// A product by id.
    public func product(_ productID: String) -> SimulatedProduct? {
        products.first { $0.productID == productID }
    }

    /// A description without the shared secret.
    public var description: String { "SimulatedApp(\(bundleID), \(products.count) products, sharedSecret: <redacted>)" }
}
