public import Foundation

/// One real-time retention request and what StoreKeeper answered it: what ``RetentionAccumulator`` counts.
public struct RetentionAnswer: Sendable, Hashable {
    /// When it was answered.
    public var at: Date
    /// The subscription Apple asked about.
    public var originalTransactionID: String
    /// The product Apple asked about.
    public var productID: String
    /// The rule that answered, `nil` when none did.
    public var rule: String?
    /// `message`, `alternate_product`, `promotional_offer`, or `default` (nothing answered: Apple's default shows).
    public var kind: String
    /// `Production`, `Sandbox`…
    public var environment: String

    /// Makes an answer.
    public init(
        at: Date, originalTransactionID: String, productID: String, rule: String?, kind: String, environment: String
    ) {
        self.at = at
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.rule = rule
        self.kind = kind
        self.environment = environment
    }
}
