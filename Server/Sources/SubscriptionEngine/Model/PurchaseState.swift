public import Foundation

/// A non-subscription purchase (non-consumable, consumable, non-renewing subscription) at one instant.
public struct PurchaseState: Sendable, Hashable {
    /// The transaction.
    public var transactionID: String
    /// The product.
    public var productID: String
    /// What it is.
    public var kind: ProductKind
    /// When it was bought.
    public var purchaseDate: Date?
    /// When access ends (non-renewing: purchase + configured duration; revoked: the revocation date).
    public var expiresAt: Date?
    /// When it was revoked.
    public var revokedAt: Date?
    /// Whether it grants access now.
    public var grantsAccess: Bool
    /// The facts that decided it.
    public var explanation: [String]
}
