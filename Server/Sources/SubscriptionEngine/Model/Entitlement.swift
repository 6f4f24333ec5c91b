public import Foundation

/// Something the customer may use ("pro"), granted by one or more products.
public struct Entitlement: Sendable, Hashable {
    /// The entitlement identifier from configuration.
    public var identifier: String
    /// The product that grants it furthest.
    public var productID: String
    /// Until when (`nil`: forever, e.g. a non-consumable).
    public var expiresAt: Date?
    /// The transaction (subscription: original transaction) that grants it.
    public var grantedBy: String
}
