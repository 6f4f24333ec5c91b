public import Foundation

/// Access to one entitlement given by the app's support without a purchase ("a month free for this reviewer"):
/// evidence the app's owner wrote, kept with the customer's other evidence.
///
/// Rule ``SubscriptionRule/supportGrant``: in force from ``grantedAt`` until ``expiresAt`` (never ending when
/// `nil`) unless a ``GrantRevocation`` ends it first; it joins the entitlement's other sources, and the latest end
/// of all of them is the entitlement's.
public struct EntitlementGrant: Sendable, Hashable, Codable {
    /// The grant's id (`grant_` and a random UUID): what a revocation names.
    public var id: String
    /// The entitlement it gives (an identifier of the configured catalog).
    public var entitlement: String
    /// When it was given: it is in force, and known, from then.
    public var grantedAt: Date
    /// When it ends; `nil` for a lifetime grant.
    public var expiresAt: Date?
    /// Why, as support wrote it.
    public var reason: String?

    /// Makes a grant.
    /// - Parameters:
    ///   - id: Its id.
    ///   - entitlement: The entitlement.
    ///   - grantedAt: When it was given.
    ///   - expiresAt: When it ends (`nil`: never).
    ///   - reason: Why.
    public init(id: String, entitlement: String, grantedAt: Date, expiresAt: Date?, reason: String?) {
        self.id = id
        self.entitlement = entitlement
        self.grantedAt = grantedAt
        self.expiresAt = expiresAt
        self.reason = reason
    }
}

/// Support took back an ``EntitlementGrant`` before its end.
public struct GrantRevocation: Sendable, Hashable, Codable {
    /// The grant it ends.
    public var grantID: String
    /// When: the grant is not in force from then on (and the revocation is known from then).
    public var revokedAt: Date

    /// Makes a revocation.
    /// - Parameters:
    ///   - grantID: The grant.
    ///   - revokedAt: When.
    public init(grantID: String, revokedAt: Date) {
        self.grantID = grantID
        self.revokedAt = revokedAt
    }
}
