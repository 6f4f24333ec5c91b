/// A transaction the store handed the app, with the evidence to send for it.
public struct StoreTransaction: Sendable, Hashable {
    /// The transaction id.
    public var id: String
    /// The original transaction id (the subscription's id).
    public var originalID: String
    /// The product bought.
    public var productID: String
    /// What to send the server for it.
    public var evidence: StoreEvidence

    /// Makes a transaction.
    public init(id: String, originalID: String, productID: String, evidence: StoreEvidence) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.evidence = evidence
    }
}
