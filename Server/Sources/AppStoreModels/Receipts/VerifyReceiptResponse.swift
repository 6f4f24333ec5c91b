import Foundation

/// A verifyReceipt response, modern or iOS 6-style.
///
/// HTTP is 200 even on errors: read ``status`` (0 valid, 21002 malformed, 21007 sandbox receipt sent to
/// production…). iOS 6-style responses carry a flat transaction under `receipt` and single objects under
/// `latest_receipt_info` / `latest_expired_receipt_info`; those land in ``legacyReceipt``,
/// ``latestReceiptInfo`` and ``latestExpiredReceiptInfo``.
public struct VerifyReceiptResponse: Codable, Sendable, Hashable {
    /// 0 when valid; otherwise one of Apple's 21xxx codes.
    public var status: Int
    /// `Sandbox` or `Production`.
    public var environment: AppStoreEnvironment?
    /// The decoded app receipt (modern form).
    public var receipt: ReceiptInfo?
    /// The decoded transaction receipt (iOS 6-style form).
    public var legacyReceipt: InAppTransactionInfo?
    /// The latest base64 receipt.
    public var latestReceipt: String?
    /// Every transaction of the account for this app, latest renewals included.
    public var latestReceiptInfo: [InAppTransactionInfo]?
    /// iOS 6-style: the latest expired transaction.
    public var latestExpiredReceiptInfo: InAppTransactionInfo?
    /// Renewal state per subscription.
    public var pendingRenewalInfo: [PendingRenewalInfo]?
    /// Whether a 21100–21199 error is worth retrying.
    public var isRetryable: Bool?
    /// iOS 6-style: whether the subscription renews.
    public var autoRenewStatus: AutoRenewStatus?
    /// iOS 6-style: the product that renews next.
    public var autoRenewProductId: String?
    /// iOS 6-style: why the subscription expired.
    public var expirationIntent: ExpirationIntent?
    /// iOS 6-style: whether Apple is retrying billing.
    public var isInBillingRetryPeriod: Bool?

    /// Makes a response with a status.
    /// - Parameter status: Apple's status code.
    public init(status: Int) {
        self.status = status
    }

    /// Decodes modern and iOS 6-style responses.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleJSONKey.self)
        guard let status: Int = try c.lenient("status") else {
            throw DecodingError.keyNotFound(
                AppleJSONKey("status"), .init(codingPath: c.codingPath, debugDescription: "status is required"))
        }
        self.status = status
        environment = try c.lenient("environment")
        if c.contains("receipt") {
            let flat = try c.decode(InAppTransactionInfo.self, forKey: "receipt")
            if flat.bid != nil || flat.itemId != nil || flat.transactionId != nil {
                legacyReceipt = flat
            } else {
                receipt = try c.decode(ReceiptInfo.self, forKey: "receipt")
            }
        }
        latestReceipt = try c.lenient("latest_receipt")
        if let list = try? c.decodeIfPresent([InAppTransactionInfo].self, forKey: "latest_receipt_info") {
            latestReceiptInfo = list
        } else if let single = try c.decodeIfPresent(InAppTransactionInfo.self, forKey: "latest_receipt_info") {
            latestReceiptInfo = [single]
        }
        latestExpiredReceiptInfo = try c.decodeIfPresent(
            InAppTransactionInfo.self, forKey: "latest_expired_receipt_info")
        pendingRenewalInfo = try c.decodeIfPresent([PendingRenewalInfo].self, forKey: "pending_renewal_info")
        isRetryable = try c.lenient("is-retryable") ?? c.lenient("is_retryable")
        autoRenewStatus = try c.lenient("auto_renew_status")
        autoRenewProductId = try c.lenient("auto_renew_product_id")
        expirationIntent = try c.lenient("expiration_intent")
        isInBillingRetryPeriod = try c.lenient("is_in_billing_retry_period")
    }

    /// Encodes verifyReceipt's spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AppleJSONKey.self)
        try c.encode(status, forKey: "status")
        try c.appleString(environment?.rawValue, "environment")
        if let receipt { try c.encode(receipt, forKey: "receipt") }
        if let legacyReceipt { try c.encode(legacyReceipt, forKey: "receipt") }
        try c.appleString(latestReceipt, "latest_receipt")
        try c.encodeIfPresent(latestReceiptInfo, forKey: "latest_receipt_info")
        try c.encodeIfPresent(latestExpiredReceiptInfo, forKey: "latest_expired_receipt_info")
        try c.encodeIfPresent(pendingRenewalInfo, forKey: "pending_renewal_info")
        try c.encodeIfPresent(isRetryable, forKey: "is-retryable")
        try c.appleString(autoRenewStatus?.rawValue, "auto_renew_status")
        try c.appleString(autoRenewProductId, "auto_renew_product_id")
        try c.appleString(expirationIntent?.rawValue, "expiration_intent")
        try c.appleString(isInBillingRetryPeriod.map { $0 ? "1" : "0" }, "is_in_billing_retry_period")
    }
}
