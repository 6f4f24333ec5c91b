public import Foundation

/// The app receipt as verifyReceipt puts it under `receipt` (the modern, non-iOS 6 form).
///
/// ``AppStoreVerification`` produces this same value from a receipt decoded on our own machine, so a local
/// check can replace a verifyReceipt call.
public struct ReceiptInfo: Codable, Sendable, Hashable {
    /// `Production`, `ProductionSandbox` or `Xcode`.
    public var receiptType: ReceiptType?
    /// The app's Apple id (`adam_id`).
    public var adamId: Int64?
    /// The app's Apple id (`app_item_id`).
    public var appItemId: Int64?
    /// The bundle identifier.
    public var bundleId: String?
    /// The app version (`CFBundleVersion`) the receipt was made for.
    public var applicationVersion: String?
    /// A download identifier.
    public var downloadId: Int64?
    /// The app version's external identifier.
    public var versionExternalIdentifier: Int64?
    /// When the receipt was created.
    public var receiptCreationDate: Date?
    /// When verifyReceipt answered (absent for local decoding).
    public var requestDate: Date?
    /// When the app was first bought.
    public var originalPurchaseDate: Date?
    /// The app version first bought.
    public var originalApplicationVersion: String?
    /// When a Volume Purchase Program receipt expires.
    public var expirationDate: Date?
    /// When the app was pre-ordered.
    public var preorderDate: Date?
    /// The in-app purchases recorded in the receipt.
    public var inApp: [InAppTransactionInfo]?

    /// Makes an empty receipt.
    public init() {}

    /// Decodes any of Apple's spellings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleJSONKey.self)
        receiptType = try c.lenient("receipt_type")
        adamId = try c.lenient("adam_id")
        appItemId = try c.lenient("app_item_id")
        bundleId = try c.lenient("bundle_id")
        applicationVersion = try c.lenient("application_version")
        downloadId = try c.lenient("download_id")
        versionExternalIdentifier = try c.lenient("version_external_identifier")
        receiptCreationDate = try c.appleDate("receipt_creation_date")
        requestDate = try c.appleDate("request_date")
        originalPurchaseDate = try c.appleDate("original_purchase_date")
        originalApplicationVersion = try c.lenient("original_application_version")
        expirationDate = try c.appleDate("expiration_date")
        preorderDate = try c.appleDate("preorder_date")
        inApp = try c.decodeIfPresent([InAppTransactionInfo].self, forKey: "in_app")
    }

    /// Encodes verifyReceipt's spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AppleJSONKey.self)
        try c.appleString(receiptType?.rawValue, "receipt_type")
        if let adamId { try c.encode(adamId, forKey: "adam_id") }
        if let appItemId { try c.encode(appItemId, forKey: "app_item_id") }
        try c.appleString(bundleId, "bundle_id")
        try c.appleString(applicationVersion, "application_version")
        if let downloadId { try c.encode(downloadId, forKey: "download_id") }
        if let versionExternalIdentifier {
            try c.encode(versionExternalIdentifier, forKey: "version_external_identifier")
        }
        try c.appleDate(receiptCreationDate, "receipt_creation_date")
        try c.appleDate(requestDate, "request_date")
        try c.appleDate(originalPurchaseDate, "original_purchase_date")
        try c.appleString(originalApplicationVersion, "original_application_version")
        try c.appleDate(expirationDate, "expiration_date")
        try c.appleDate(preorderDate, "preorder_date")
        try c.encodeIfPresent(inApp, forKey: "in_app")
    }
}
