public import Foundation

/// Everything the engine decides for one customer at one instant.
public struct CustomerState: Sendable, Hashable {
    /// The instant the state is for.
    public var evaluatedAt: Date
    /// Auto-renewable subscriptions, by original transaction id.
    public var subscriptions: [SubscriptionState]
    /// Non-consumables, consumables and non-renewing subscriptions, by transaction id.
    public var purchases: [PurchaseState]
    /// Entitlements in force, by identifier.
    public var entitlements: [Entitlement]
    /// Grants support gave, in force or not, by id (given by the instant and, as known then, known by then).
    public var grants: [GrantState] = []
    /// Intro-offer eligibility per product id.
    public var introEligibility: [String: IntroEligibility]
}
