public import AppStoreModels
public import Foundation

/// An app receipt payload decoded from its ASN.1, with every documented field.
///
/// ```
/// Payload ::= SET OF ReceiptAttribute
/// ```
/// Types: 0 receipt type, 1 app item id, 2 bundle id, 3 app version, 4 opaque value, 5 SHA-1 hash,
/// 12 creation date, 15 download id, 16 version external identifier, 17 in-app purchase (nested payload),
/// 18 original purchase date, 19 original app version, 21 expiration date, 32 pre-order date.
public struct AppReceipt: Sendable, Hashable {
    /// `Production`, `ProductionSandbox` or `Xcode` (type 0).
    public var receiptType: String?
    /// The app's Apple id (type 1).
    public var appItemID: Int64?
    /// The bundle identifier (type 2).
    public var bundleID: String?
    /// The bundle identifier attribute's raw value bytes, which the device hash covers (type 2).
    public var bundleIDData: [UInt8] = []
    /// The app version, `CFBundleVersion` (type 3).
    public var appVersion: String?
    /// An opaque value the device hash covers (type 4).
    public var opaqueValue: [UInt8] = []
    /// SHA-1 of device identifier ‖ opaque value ‖ bundle id data (type 5).
    public var sha1Hash: [UInt8] = []
    /// When the receipt was created (type 12).
    public var creationDate: Date?
    /// A download identifier (type 15).
    public var downloadID: Int64?
    /// The version's external identifier (type 16).
    public var versionExternalIdentifier: Int64?
    /// When the app was first bought (type 18).
    public var originalPurchaseDate: Date?
    /// The version first bought (type 19).
    public var originalAppVersion: String?
    /// When the receipt expires (type 21; Volume Purchase Program and Xcode).
    public var expirationDate: Date?
    /// When the app was pre-ordered (type 32).
    public var preorderDate: Date?
    /// The in-app purchases (type 17).
    public var inAppPurchases: [AppReceiptInAppPurchase] = []
    /// Attributes of types not interpreted above.
    public var otherAttributes: [ReceiptAttribute] = []

    /// Makes an empty receipt.
    public init() {}

    /// The receipt in the form verifyReceipt puts under `receipt`, so a local check can replace the call.
    public var receiptInfo: ReceiptInfo {
        var info = ReceiptInfo()
        info.receiptType = receiptType.map(ReceiptType.init(rawValue:))
        info.adamId = appItemID ?? 0
        info.appItemId = appItemID ?? 0
        info.bundleId = bundleID
        info.applicationVersion = appVersion
        info.downloadId = downloadID ?? 0
        info.versionExternalIdentifier = versionExternalIdentifier ?? 0
        info.receiptCreationDate = creationDate
        info.originalPurchaseDate = originalPurchaseDate
        info.originalApplicationVersion = originalAppVersion
        info.expirationDate = expirationDate
        info.preorderDate = preorderDate
        info.inApp = inAppPurchases.map(\.transactionInfo)
        return info
    }
}
