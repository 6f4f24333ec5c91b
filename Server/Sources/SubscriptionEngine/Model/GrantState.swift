public import Foundation

/// One ``EntitlementGrant`` at one instant: whether it is in force, and why.
public struct GrantState: Sendable, Hashable {
    /// The grant's id.
    public var id: String
    /// The entitlement it gives.
    public var entitlement: String
    /// When it was given.
    public var grantedAt: Date
    /// When it ends (`nil`: never), as given.
    public var expiresAt: Date?
    /// When support revoked it, if it has by the instant.
    public var revokedAt: Date?
    /// Why it was given.
    public var reason: String?
    /// Whether it gives its entitlement at the instant.
    public var isActive: Bool
    /// The facts that decided it.
    public var explanation: [String]

    /// What the product id of an entitlement a grant gives reads: no product grants it.
    public static let productID = "$grant"
}
