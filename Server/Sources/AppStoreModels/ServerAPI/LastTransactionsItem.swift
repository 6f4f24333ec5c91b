/// The latest state of one subscription in a ``StatusResponse``.
public struct LastTransactionsItem: Codable, Sendable, Hashable {
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    @Lenient public var status: SubscriptionStatus?
    /// The original purchase.
    @Lenient public var originalTransactionId: String?
    /// The latest signed transaction (JWS).
    @Lenient public var signedTransactionInfo: String?
    /// Signed renewal info (JWS).
    @Lenient public var signedRenewalInfo: String?

    /// Makes an empty value; set the fields you need.
    public init() {}
}
