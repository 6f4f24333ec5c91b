public import Foundation

/// One change of a customer's state, found by ``ChangeDetector``.
public struct StateChange: Sendable, Hashable {
    /// What changed.
    public var kind: ChangeKind
    /// The subscription it is about (`nil` for a purchase that is not an auto-renewable subscription).
    public var originalTransactionID: String?
    /// The transaction that decided the new state.
    public var transactionID: String?
    /// The product.
    public var productID: String
    /// When the App Store says it happened, when the evidence tells: the period's purchase date for a purchase,
    /// renewal or product change, the revocation date for a refund, the end of the period for an expiration.
    public var storeTimestamp: Date?

    /// A change.
    public init(
        kind: ChangeKind, originalTransactionID: String?, transactionID: String?, productID: String,
        storeTimestamp: Date?
    ) {
        self.kind = kind
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.storeTimestamp = storeTimestamp
    }
}
