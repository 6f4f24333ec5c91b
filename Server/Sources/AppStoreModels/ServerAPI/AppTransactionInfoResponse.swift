/// Get App Transaction Info: the customer's signed app transaction.
public struct AppTransactionInfoResponse: Codable, Sendable, Hashable {
    /// The signed app transaction (JWS).
    @Lenient public var signedAppTransactionInfo: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
