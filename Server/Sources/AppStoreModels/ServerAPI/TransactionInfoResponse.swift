/// Get Transaction Info: one signed transaction.
public struct TransactionInfoResponse: Codable, Sendable, Hashable {
    /// The signed transaction (JWS).
    @Lenient public var signedTransactionInfo: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
