/// The `unified_receipt` of a V1 notification: the same data verifyReceipt would return.
public struct UnifiedReceipt: Codable, Sendable, Hashable {
    /// verifyReceipt's status (0).
    public var status: Int?
    /// `Sandbox` or `Production`.
    public var environment: AppStoreEnvironment?
    /// The latest base64 receipt.
    public var latestReceipt: String?
    /// The account's transactions.
    public var latestReceiptInfo: [InAppTransactionInfo]?
    /// Renewal state per subscription.
    public var pendingRenewalInfo: [PendingRenewalInfo]?

    enum CodingKeys: String, CodingKey {
        case status, environment
        case latestReceipt = "latest_receipt"
        case latestReceiptInfo = "latest_receipt_info"
        case pendingRenewalInfo = "pending_renewal_info"
    }

    /// Makes an empty unified receipt.
    public init() {}

    /// Decodes Apple's spelling.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(Lenient<Int>.self, forKey: .status).wrappedValue
        environment = try c.decode(Lenient<AppStoreEnvironment>.self, forKey: .environment).wrappedValue
        latestReceipt = try c.decodeIfPresent(String.self, forKey: .latestReceipt)
        latestReceiptInfo = try c.decodeIfPresent([InAppTransactionInfo].self, forKey: .latestReceiptInfo)
        pendingRenewalInfo = try c.decodeIfPresent([PendingRenewalInfo].self, forKey: .pendingRenewalInfo)
    }
}
