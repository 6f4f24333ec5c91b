/// What a product is, which decides how it grants access.
public enum ProductKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Renews until cancelled; access follows the latest period.
    case autoRenewable
    /// Bought once, kept forever unless revoked.
    case nonConsumable
    /// Used up; recorded, never an entitlement.
    case consumable
    /// A fixed period that does not renew; its length comes from configuration.
    case nonRenewing
}
