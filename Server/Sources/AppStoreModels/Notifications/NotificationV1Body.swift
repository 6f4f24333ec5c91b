public import Foundation

/// An App Store Server Notification V1 body (JSON, authenticated only by the shared secret in `password`).
public struct NotificationV1Body: Codable, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public var notificationType: NotificationTypeV1
    /// The app's shared secret; compare in constant time, never log (see ``description``).
    public var password: String?
    /// `Sandbox` or `PROD` (decoded as production).
    public var environment: AppStoreEnvironment?
    /// Whether the subscription renews (`"true"` / `"false"`).
    public var autoRenewStatus: Bool?
    /// The product that renews next.
    public var autoRenewProductId: String?
    /// When auto-renew was toggled.
    public var autoRenewStatusChangeDate: Date?
    /// The receipt state after the event.
    public var unifiedReceipt: UnifiedReceipt?
    /// The bundle identifier.
    public var bid: String?
    /// The app version.
    public var bvrs: String?
    /// The original transaction (older bodies).
    public var originalTransactionId: String?
    /// Why the subscription expired (older bodies).
    public var expirationIntent: ExpirationIntent?

    /// Makes a body.
    /// - Parameter notificationType: What happened.
    public init(notificationType: NotificationTypeV1) {
        self.notificationType = notificationType
    }

    /// Decodes Apple's spelling.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleJSONKey.self)
        guard let type: NotificationTypeV1 = try c.lenient("notification_type") else {
            throw DecodingError.keyNotFound(
                AppleJSONKey("notification_type"),
                .init(codingPath: c.codingPath, debugDescription: "notification_type is required"))
        }
        notificationType = type
        password = try c.lenient("password")
        environment = try c.lenient("environment")
        autoRenewStatus = try c.lenient("auto_renew_status")
        autoRenewProductId = try c.lenient("auto_renew_product_id")
        autoRenewStatusChangeDate = try c.appleDate("auto_renew_status_change_date")
        unifiedReceipt = try c.decodeIfPresent(UnifiedReceipt.self, forKey: "unified_receipt")
        bid = try c.lenient("bid")
        bvrs = try c.lenient("bvrs")
        originalTransactionId = try c.lenient("original_transaction_id")
        expirationIntent = try c.lenient("expiration_intent")
    }

    /// Encodes Apple's spelling. The password is written as Apple sent it: callers strip it before storing.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AppleJSONKey.self)
        try c.appleString(notificationType.rawValue, "notification_type")
        try c.appleString(password, "password")
        try c.appleString(environment.map { $0 == .production ? "PROD" : $0.rawValue }, "environment")
        try c.appleBool(autoRenewStatus, "auto_renew_status")
        try c.appleString(autoRenewProductId, "auto_renew_product_id")
        try c.appleDate(autoRenewStatusChangeDate, "auto_renew_status_change_date")
        try c.encodeIfPresent(unifiedReceipt, forKey: "unified_receipt")
        try c.appleString(bid, "bid")
        try c.appleString(bvrs, "bvrs")
        try c.appleString(originalTransactionId, "original_transaction_id")
        try c.appleString(expirationIntent?.rawValue, "expiration_intent")
    }

    /// A description without the shared secret.
    public var description: String {
        "NotificationV1Body(\(notificationType), bid: \(bid ?? "nil"), password: "
            + (password == nil ? "nil" : "<redacted>") + ")"
    }
}
