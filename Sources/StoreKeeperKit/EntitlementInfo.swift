public import Foundation

/// One entitlement as the app decides access with it.
public struct EntitlementInfo: Sendable, Hashable {
    /// The entitlement's name in the server's product → entitlement configuration (e.g. `premium`).
    public var identifier: String
    /// Whether it grants access at ``CustomerInfo/decidedAt``.
    public var isActive: Bool
    /// The product that grants it.
    public var productID: String
    /// When it ends unless renewed; `nil` for a lifetime purchase.
    public var expiresAt: Date?
    /// Whether the subscription that grants it renews at its end.
    public var willRenew: Bool
    /// `trial`, `intro`, `promotional`, `offerCode`, `winBack` or `normal`: the kind of the current period.
    public var periodType: String
    /// The original transaction (or transaction) that grants it.
    public var grantedBy: String

    /// Makes an entitlement.
    public init(
        identifier: String, isActive: Bool, productID: String, expiresAt: Date?, willRenew: Bool, periodType: String,
        grantedBy: String
    ) {
        self.identifier = identifier
        self.isActive = isActive
        self.productID = productID
        self.expiresAt = expiresAt
        self.willRenew = willRenew
        self.periodType = periodType
        self.grantedBy = grantedBy
    }
}
