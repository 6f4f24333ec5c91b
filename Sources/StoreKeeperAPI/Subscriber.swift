public import Foundation
public import StoreKeeperWire

/// What a customer is entitled to, until when, and why: entitlements, subscriptions with their explanations,
/// other purchases, aliases and intro-offer eligibility. Every key is always present (`null` when unknown).
public struct Subscriber: Codable, Sendable, Hashable {
    /// The canonical app user id (an alias asked for resolves to it).
    public var appUserID: String
    /// Other ids that name this subscriber, sorted.
    public var aliases: [String]
    /// When StoreKeeper first stored evidence for this subscriber; `nil` for one never seen.
    public var firstSeen: Date?
    /// What the customer has access to now.
    public var entitlements: [Entitlement]
    /// Every auto-renewable subscription, by original transaction id.
    public var subscriptions: [Subscription]
    /// Every other purchase (consumables, non-consumables, non-renewing subscriptions).
    public var nonSubscriptions: [Purchase]
    /// Intro-offer eligibility by product id: `eligible`, `ineligible` or `unknown`.
    public var introEligibility: [String: String]
    /// The entitlements support granted, in force or not, oldest first (an answer from a server before grants
    /// decodes with none).
    public var grants: [Grant]

    /// Makes a subscriber.
    public init(
        appUserID: String, aliases: [String], firstSeen: Date?, entitlements: [Entitlement],
        subscriptions: [Subscription],
        nonSubscriptions: [Purchase], introEligibility: [String: String], grants: [Grant] = []
    ) {
        self.appUserID = appUserID
        self.aliases = aliases
        self.firstSeen = firstSeen
        self.entitlements = entitlements
        self.subscriptions = subscriptions
        self.nonSubscriptions = nonSubscriptions
        self.introEligibility = introEligibility
        self.grants = grants
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", aliases, firstSeen = "first_seen", entitlements, subscriptions
        case nonSubscriptions = "non_subscriptions", introEligibility = "intro_eligibility", grants
    }

    /// Decodes a subscriber; `grants` may be missing (an answer from a server before grants, an SDK's cache).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appUserID = try c.decode(String.self, forKey: .appUserID)
        aliases = try c.decode([String].self, forKey: .aliases)
        firstSeen = try c.decodeIfPresent(Date.self, forKey: .firstSeen)
        entitlements = try c.decode([Entitlement].self, forKey: .entitlements)
        subscriptions = try c.decode([Subscription].self, forKey: .subscriptions)
        nonSubscriptions = try c.decode([Purchase].self, forKey: .nonSubscriptions)
        introEligibility = try c.decode([String: String].self, forKey: .introEligibility)
        grants = try c.decodeIfPresent([Grant].self, forKey: .grants) ?? []
    }
}

extension Subscriber: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .appUserID: writer.value(appUserID)
        case .aliases: writer.value(aliases)
        case .firstSeen: writer.value(firstSeen)
        case .entitlements: writer.value(entitlements)
        case .subscriptions: writer.value(subscriptions)
        case .nonSubscriptions: writer.value(nonSubscriptions)
        case .introEligibility: writer.value(introEligibility)
        case .grants: writer.value(grants)
        }
    }
}

extension Subscriber: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text)
        case .aliases: .required(.array(of: .text))
        case .firstSeen: .required(.dateTime.nullable)
        case .entitlements: .required(.array(of: .type(Entitlement.self)))
        case .subscriptions: .required(.array(of: .type(Subscription.self)))
        case .nonSubscriptions: .required(.array(of: .type(Purchase.self)))
        case .introEligibility: .required(.map(of: .oneOf(["eligible", "ineligible", "unknown"])))
        case .grants:
            .required(
                .array(of: .type(Grant.self)).described("Entitlements support granted, in force or not, oldest first"))
        }
    }
}
