/// `transactionReason` of a signed transaction.
///
/// Unknown raw values decode to ``unknown(_:)`` instead of failing.
public enum TransactionReason: OpenEnum {
    /// Bought by the customer.
    case purchase
    /// An automatic renewal.
    case renewal
    /// A value Apple added after this code was written.
    case unknown(String)

    /// Every known case with its raw value.
    public static let known: [(TransactionReason, String)] = [
        (.purchase, "PURCHASE"),
        (.renewal, "RENEWAL"),
    ]

    /// The raw value when this is ``unknown(_:)``.
    public var unknownRawValue: String? {
        if case .unknown(let raw) = self { return raw }
        return nil
    }
}
