/// Get Refund History (v2): one page of refunded transactions.
public struct RefundHistoryResponse: Codable, Sendable, Hashable {
    /// Signed refunded transactions (JWS).
    public var signedTransactions: [String]?
    /// Token for the next page.
    @Lenient public var revision: String?
    /// Whether more pages exist.
    @Lenient public var hasMore: Bool?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
