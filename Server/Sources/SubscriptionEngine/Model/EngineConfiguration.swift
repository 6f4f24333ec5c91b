import Foundation

/// What the engine needs to know that evidence does not say.
public struct EngineConfiguration: Sendable, Hashable, Codable {
    /// Product id → entitlement identifiers it grants. Default: none.
    public var entitlements: [String: [String]] = [:]
    /// Product id → subscription group id, for intro-offer eligibility. Default: none.
    public var subscriptionGroups: [String: String] = [:]
    /// Non-renewing subscription product id → length in seconds. Default: none.
    public var nonRenewingDurations: [String: Double] = [:]
    /// Product ids that are consumables (receipts do not say). Default: none.
    public var consumables: Set<String> = []

    /// Every product id this configuration names (as granting entitlements, in a group, non-renewing or
    /// consumable): the app's catalog as far as the server knows it; empty when it names none.
    public var productIDs: Set<String> {
        Set(entitlements.keys).union(subscriptionGroups.keys).union(nonRenewingDurations.keys).union(consumables)
    }

    /// The defaults: no entitlements, groups, durations or consumables.
    public init() {}

    /// The configuration file's keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case entitlements, subscriptionGroups, nonRenewingDurations, consumables
    }

    /// Decodes a configuration file; every key is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        entitlements = try c.decodeIfPresent([String: [String]].self, forKey: .entitlements) ?? [:]
        subscriptionGroups = try c.decodeIfPresent([String: String].self, forKey: .subscriptionGroups) ?? [:]
        nonRenewingDurations = try c.decodeIfPresent([String: Double].self, forKey: .nonRenewingDurations) ?? [:]
        consumables = try c.decodeIfPresent(Set<String>.self, forKey: .consumables) ?? []
    }
}
