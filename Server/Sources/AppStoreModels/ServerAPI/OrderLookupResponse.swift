/// Look Up Order ID: the transactions of an order (status 0 valid, 1 invalid).
public struct OrderLookupResponse: Codable, Sendable, Hashable {
    /// 0 when the order id is valid, 1 otherwise.
    @Lenient public var status: Int?
    /// Signed transactions (JWS).
    public var signedTransactions: [String]?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
