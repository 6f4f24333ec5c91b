/// The body POSTed to verifyReceipt.
public struct VerifyReceiptRequest: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The base64 app receipt.
    public var receiptData: String
    /// The app's shared secret (auto-renewable subscriptions). Never logged: see ``description``.
    public var password: String?
    /// Whether to return only the latest renewal of each subscription in `latest_receipt_info`.
    public var excludeOldTransactions: Bool?

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }

    /// Makes a request.
    /// - Parameters:
    ///   - receiptData: The base64 receipt.
    ///   - password: The shared secret.
    ///   - excludeOldTransactions: Whether to drop old renewals.
    public init(receiptData: String, password: String? = nil, excludeOldTransactions: Bool? = nil) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// Decodes a request; `exclude-old-transactions` accepts Apple's lenient booleans.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        receiptData = try c.decode(String.self, forKey: .receiptData)
        password = try c.decodeIfPresent(String.self, forKey: .password)
        excludeOldTransactions = try c.decode(Lenient<Bool>.self, forKey: .excludeOldTransactions).wrappedValue
    }

    /// A description that never shows the shared secret or the receipt.
    public var description: String {
        "VerifyReceiptRequest(receiptData: <\(receiptData.utf8.count) bytes>, password: "
            + (password == nil ? "nil" : "<redacted>")
            + ", excludeOldTransactions: \(String(describing: excludeOldTransactions)))"
    }
}
