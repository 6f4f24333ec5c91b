/// One targeting rule: when a customer matches every condition of `when`, they are shown `offering_id` instead of
/// the project's current offering. Rules are tried in order; the first that matches wins.
public struct TargetingRule: Codable, Sendable, Hashable {
    /// Its name (1–100 characters from `A–Z a–z 0–9 . _ -`), distinct among the project's rules; answers name
    /// the rule that chose their offering by it.
    public var identifier: String
    /// The offering shown to a customer it matches.
    public var offeringID: String
    /// What a customer must match (every condition given; none given: everyone).
    public var when: TargetingConditions

    /// Makes a rule.
    public init(identifier: String, offeringID: String, when: TargetingConditions = TargetingConditions()) {
        self.identifier = identifier
        self.offeringID = offeringID
        self.when = when
    }

    /// Decodes a rule: `when` defaults to everyone.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        offeringID = try c.decode(String.self, forKey: .offeringID)
        when = try c.decodeIfPresent(TargetingConditions.self, forKey: .when) ?? TargetingConditions()
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, offeringID = "offering_id", when }
}

/// What a customer must match. Each condition given must hold; a condition the request cannot tell (no app
/// version sent) does not hold.
public struct TargetingConditions: Codable, Sendable, Hashable {
    /// The customer's storefront is one of these (ISO 3166-1 alpha-3, `USA`): the `StoreKeeper-Storefront` header,
    /// else the storefront of the customer's latest subscription.
    public var storefronts: [String]?
    /// The app's platform is one of these (`iOS`, `iPadOS`, `macOS`, `tvOS`, `watchOS`, `visionOS`): the
    /// `StoreKeeper-Platform` header.
    public var platforms: [String]?
    /// The app's version (`StoreKeeper-App-Version`, dotted numbers) lies in this range.
    public var appVersion: TargetingVersionRange?
    /// The customer's language is one of these (`de`, `pt-BR`): the first tag of `Accept-Language`, matched whole
    /// or by its language (`pt` matches `pt-BR`).
    public var locales: [String]?
    /// Whole days since the server first saw the customer (0 for one never seen) lie in this range.
    public var firstSeenDays: TargetingDayRange?
    /// The customer's attributes hold these values (each name given, exactly), each set by the owner's backend
    /// (a secret key) unless `trust` is `client`.
    public var attributes: [String: String]?
    /// Whose attributes `attributes` reads: `server` (the default: only those set with a secret key) or `client`
    /// (also those the app set with its public key, which anyone holding a copy of the app can set for anyone).
    public var trust: String?
    /// Where the customer stands: `never_subscribed` (no subscription ever), `active` (an entitlement now) or
    /// `expired` (subscribed once, no entitlement now).
    public var entitlementState: String?

    /// Makes conditions (none: everyone).
    public init(
        storefronts: [String]? = nil, platforms: [String]? = nil, appVersion: TargetingVersionRange? = nil,
        locales: [String]? = nil, firstSeenDays: TargetingDayRange? = nil, entitlementState: String? = nil,
        attributes: [String: String]? = nil, trust: String? = nil
    ) {
        self.attributes = attributes
        self.trust = trust
        self.storefronts = storefronts
        self.platforms = platforms
        self.appVersion = appVersion
        self.locales = locales
        self.firstSeenDays = firstSeenDays
        self.entitlementState = entitlementState
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case storefronts, platforms, appVersion = "app_version", locales, firstSeenDays = "first_seen_days"
        case entitlementState = "entitlement_state", attributes, trust
    }
}

/// A range of app versions: at least `at_least` (inclusive) and below `below` (exclusive), either may be absent.
public struct TargetingVersionRange: Codable, Sendable, Hashable {
    /// The lowest version in the range (`2.1`).
    public var atLeast: String?
    /// The first version past the range (`3.0`).
    public var below: String?

    /// Makes a range.
    public init(atLeast: String? = nil, below: String? = nil) {
        self.atLeast = atLeast
        self.below = below
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case atLeast = "at_least", below }
}

/// A range of whole days: at least `at_least` and below `below`, either may be absent.
public struct TargetingDayRange: Codable, Sendable, Hashable {
    /// The fewest days in the range.
    public var atLeast: Int?
    /// The first number of days past the range.
    public var below: Int?

    /// Makes a range.
    public init(atLeast: Int? = nil, below: Int? = nil) {
        self.atLeast = atLeast
        self.below = below
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case atLeast = "at_least", below }
}

/// `GET` and `PUT /v1/targeting`: the project's targeting rules, in the order they are tried.
public struct TargetingRules: Codable, Sendable, Hashable {
    /// The rules, first tried first.
    public var rules: [TargetingRule]

    /// Makes the list.
    public init(rules: [TargetingRule]) { self.rules = rules }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case rules }
}

extension TargetingConditions: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(
        isClosed: true, description: "Every condition given must hold; none: everyone")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .storefronts:
            .optional(
                .array(of: .text.pattern(#"^[A-Z]{3}$"#)).count(1...250).described(
                    "ISO 3166-1 alpha-3 storefronts (StoreKeeper-Storefront header, else the latest subscription's)"))
        case .platforms:
            .optional(
                .array(of: .oneOf(["iOS", "iPadOS", "macOS", "tvOS", "watchOS", "visionOS"])).count(1...250).described(
                    "StoreKeeper-Platform header"))
        case .appVersion: .optional(.type(TargetingVersionRange.self))
        case .locales:
            .optional(
                .array(of: .text.length(0...35).pattern(#"^[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8})*$"#)).count(1...250)
                    .described("Language tags matched against the first tag of Accept-Language"))
        case .firstSeenDays: .optional(.type(TargetingDayRange.self))
        case .entitlementState: .optional(.oneOf(["never_subscribed", "active", "expired"]))
        case .attributes:
            .optional(
                .map(of: .text.length(0...500)).members(1...20).described(
                    "The customer's attributes hold these values, each set with a secret key unless trust is client"))
        case .trust:
            .optional(
                .oneOf(["server", "client"]).described(
                    "Whose attributes the attributes condition reads: server (default; only values set with a secret key) or client (the app's values too)"
                ))
        }
    }
}

extension TargetingDayRange: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .atLeast: .optional(.integer.range(0...Int.max).described("Inclusive"))
        case .below: .optional(.integer.range(0...Int.max).described("Exclusive"))
        }
    }
}

extension TargetingRule: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.identifier)
        case .offeringID: .required(.identifier.described("An offering of the project"))
        case .when: .optional(.type(TargetingConditions.self))
        }
    }
}

extension TargetingRules: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .rules: .required(.array(of: .type(TargetingRule.self)).count(0...50))
        }
    }
}

extension TargetingVersionRange: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .atLeast: .optional(.text.pattern(#"^[0-9]{1,9}(\.[0-9]{1,9}){0,3}$"#).described("Inclusive"))
        case .below: .optional(.text.pattern(#"^[0-9]{1,9}(\.[0-9]{1,9}){0,3}$"#).described("Exclusive"))
        }
    }
}
