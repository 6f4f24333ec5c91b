/// What the App Store asks a Get Retention Message endpoint, decoded from the `signedPayload` of its
/// `RealtimeRequestBody`: the customer looking at their subscription's page in Settings, who may cancel.
/// https://developer.apple.com/documentation/retentionmessaging/decodedrealtimerequestbody
public struct DecodedRealtimeRequestBody: Codable, Sendable, Hashable {
    /// The subscription's original transaction id: who is asking.
    public var originalTransactionId: String
    /// The app's Apple id (compare it with the app's own; Apple: do not answer when it differs).
    public var appAppleId: Int64?
    /// The product of the subscription being viewed.
    public var productId: String
    /// The customer's locale (`en-US`).
    public var userLocale: String?
    /// This request's unique id.
    public var requestIdentifier: String
    /// When Apple signed the request, in milliseconds since 1970.
    public var signedDate: Int64?
    /// `Sandbox` or `Production`.
    public var environment: AppStoreEnvironment?

    /// Makes a request body.
    public init(
        originalTransactionId: String, appAppleId: Int64?, productId: String, userLocale: String?,
        requestIdentifier: String, signedDate: Int64?, environment: AppStoreEnvironment?
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }
}

/// The body the App Store posts to a Get Retention Message endpoint.
/// https://developer.apple.com/documentation/retentionmessaging/realtimerequestbody
public struct RealtimeRequestBody: Codable, Sendable, Hashable {
    /// The request, a JWS signed by the App Store (``DecodedRealtimeRequestBody``).
    public var signedPayload: String

    /// Wraps a signed payload.
    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
