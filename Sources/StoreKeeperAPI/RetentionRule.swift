/// A project's Retention Messaging rules (`GET/PUT /v1/retention/rules`): tried in order when Apple asks which
/// retention message to show a customer who may cancel; the first rule that matches (and may answer) chooses.
public struct RetentionRules: Codable, Sendable, Hashable {
    /// The rules, first tried first.
    public var rules: [RetentionRule]

    /// Makes rules.
    public init(rules: [RetentionRule]) { self.rules = rules }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case rules }
}

/// One rule: when the customer matches `when`, Apple is answered `respond`.
public struct RetentionRule: Codable, Sendable, Hashable {
    /// Its name (1–100 characters from `A–Z a–z 0–9 . _ -`), distinct among the rules; events and metrics name
    /// the rule that answered by it.
    public var identifier: String
    /// What the customer must match (every condition given; none: everyone).
    public var when: RetentionConditions
    /// What Apple is answered.
    public var respond: RetentionResponse

    /// Makes a rule.
    public init(identifier: String, when: RetentionConditions = RetentionConditions(), respond: RetentionResponse) {
        self.identifier = identifier
        self.when = when
        self.respond = respond
    }

    /// Decodes a rule: `when` defaults to everyone.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        when = try c.decodeIfPresent(RetentionConditions.self, forKey: .when) ?? RetentionConditions()
        respond = try c.decode(RetentionResponse.self, forKey: .respond)
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case identifier, when, respond }
}

/// What a customer must match for a retention rule. Each condition given must hold.
public struct RetentionConditions: Codable, Sendable, Hashable {
    /// The product of the subscription Apple asks about is one of these.
    public var productIDs: [String]?
    /// The subscription is in one of these states: `active` (paid, renewing normally), `trial` (in a free
    /// trial), `grace` (in a billing grace period) or `price_increase_pending` (a price increase awaits consent).
    public var states: [String]?
    /// At least this many months of paid service so far (30-day months, across the customer's subscriptions).
    public var paidMonthsAtLeast: Int?
    /// Fewer than this many months of paid service so far.
    public var paidMonthsBelow: Int?
    /// At least this many months (30 days) since the customer was last answered a promotional offer; a customer
    /// never offered one matches.
    public var monthsSinceLastOfferAtLeast: Int?
    /// The subscription's storefront is one of these (ISO 3166-1 alpha-3).
    public var storefronts: [String]?
    /// The customer's locale (Apple's `userLocale`) is one of these, matched whole or by language (`pt` matches
    /// `pt-BR`).
    public var locales: [String]?
    /// The customer's attributes hold these values (each name given, exactly), each set by the owner's backend
    /// (a secret key) unless `trust` is `client`.
    public var attributes: [String: String]?
    /// Whose attributes `attributes` reads: `server` (the default: only those set with a secret key) or `client`
    /// (also those the app set with its public key, which anyone holding a copy of the app can set for anyone).
    public var trust: String?

    /// Makes conditions (none: everyone).
    public init(
        productIDs: [String]? = nil, states: [String]? = nil, paidMonthsAtLeast: Int? = nil,
        paidMonthsBelow: Int? = nil, monthsSinceLastOfferAtLeast: Int? = nil, storefronts: [String]? = nil,
        locales: [String]? = nil, attributes: [String: String]? = nil, trust: String? = nil
    ) {
        self.trust = trust
        self.productIDs = productIDs
        self.states = states
        self.paidMonthsAtLeast = paidMonthsAtLeast
        self.paidMonthsBelow = paidMonthsBelow
        self.monthsSinceLastOfferAtLeast = monthsSinceLastOfferAtLeast
        self.storefronts = storefronts
        self.locales = locales
        self.attributes = attributes
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case productIDs = "product_id", states = "state", paidMonthsAtLeast = "paid_months_at_least"
        case paidMonthsBelow = "paid_months_below", monthsSinceLastOfferAtLeast = "months_since_last_offer_at_least"
        case storefronts = "storefront", locales = "locale", attributes, trust
    }
}

/// What a retention rule answers Apple: exactly one of a message, a switch-plan message or a promotional offer.
public struct RetentionResponse: Codable, Sendable, Hashable {
    /// A message (with its image, if it has one).
    public var message: Message?
    /// A switch-plan message with the product to switch to (same subscription group).
    public var alternateProduct: AlternateProduct?
    /// A promotional offer, signed by the server with the app's In-App Purchase key, with its message.
    public var promotionalOffer: PromotionalOffer?

    /// Makes a response.
    public init(
        message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil
    ) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }

    /// `message`, `alternate_product` or `promotional_offer`: the kind given (the first, when several are).
    public var kind: String {
        message != nil ? "message" : alternateProduct != nil ? "alternate_product" : "promotional_offer"
    }

    /// The message shown, whichever kind.
    public var messageID: String? {
        message?.messageID ?? alternateProduct?.messageID ?? promotionalOffer?.messageID
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case message, alternateProduct = "alternate_product", promotionalOffer = "promotional_offer"
    }

    /// A message to show.
    public struct Message: Codable, Sendable, Hashable {
        /// The message's identifier (a UUID) as uploaded to Apple.
        public var messageID: String
        /// Makes one.
        public init(messageID: String) { self.messageID = messageID }
        /// The wire names.
        public enum CodingKeys: String, CodingKey, CaseIterable { case messageID = "message_id" }
    }

    /// A switch-plan message.
    public struct AlternateProduct: Codable, Sendable, Hashable {
        /// The message's identifier (a UUID).
        public var messageID: String
        /// The product offered instead.
        public var productID: String
        /// Makes one.
        public init(messageID: String, productID: String) {
            self.messageID = messageID
            self.productID = productID
        }
        /// The wire names.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case messageID = "message_id", productID = "product_id"
        }
    }

    /// A promotional offer with its message.
    public struct PromotionalOffer: Codable, Sendable, Hashable {
        /// The message's identifier (a UUID).
        public var messageID: String
        /// The promotional offer's identifier in App Store Connect.
        public var offerID: String
        /// `v2` (a compact JWS, the default) or `v1` (the legacy signature fields).
        public var signature: String?
        /// Makes one.
        public init(messageID: String, offerID: String, signature: String? = nil) {
            self.messageID = messageID
            self.offerID = offerID
            self.signature = signature
        }
        /// The wire names.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case messageID = "message_id", offerID = "offer_id", signature
        }
    }
}

extension RetentionConditions: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(
        isClosed: true, description: "Every condition given must hold; none: everyone")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .productIDs:
            .optional(
                .array(of: .text.length(1...255)).count(1...250).described(
                    "The product Apple asks about is one of these"))
        case .states:
            .optional(
                .array(of: .oneOf(["active", "trial", "grace", "price_increase_pending"])).count(1...250).described(
                    "The subscription is in one of these states"))
        case .paidMonthsAtLeast:
            .optional(.integer(0, 1200).described("At least this many 30-day months of paid service"))
        case .paidMonthsBelow:
            .optional(.integer(0, 1200).described("Fewer than this many 30-day months of paid service"))
        case .monthsSinceLastOfferAtLeast:
            .optional(
                .integer(0, 1200).described(
                    "At least this many months since the last promotional offer answered (never: matches)"))
        case .storefronts:
            .optional(
                .array(of: .text.pattern(#"^[A-Z]{3}$"#)).count(1...250).described(
                    "ISO 3166-1 alpha-3 storefronts of the subscription"))
        case .locales:
            .optional(
                .array(of: .text.length(0...35).pattern(#"^[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8})*$"#)).count(1...250)
                    .described("Language tags matched against Apple's userLocale"))
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

extension RetentionResponse: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(
        isClosed: true, description: "Exactly one of message, alternate_product and promotional_offer", members: 1...1)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .message: .optional(.inline(RetentionResponse.Message.self))
        case .alternateProduct: .optional(.inline(RetentionResponse.AlternateProduct.self))
        case .promotionalOffer: .optional(.inline(RetentionResponse.PromotionalOffer.self))
        }
    }
}

extension RetentionRule: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.identifier)
        case .when: .optional(.type(RetentionConditions.self))
        case .respond: .required(.type(RetentionResponse.self))
        }
    }
}

extension RetentionRules: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .rules: .required(.array(of: .type(RetentionRule.self)).count(0...50))
        }
    }
}

extension RetentionResponse.AlternateProduct: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .messageID: .required(.uuid.described("A message identifier (a UUID) as uploaded to Apple"))
        case .productID: .required(.text.length(1...255))
        }
    }
}

extension RetentionResponse.Message: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .messageID: .required(.uuid.described("A message identifier (a UUID) as uploaded to Apple"))
        }
    }
}

extension RetentionResponse.PromotionalOffer: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(isClosed: true)

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .messageID: .required(.uuid.described("A message identifier (a UUID) as uploaded to Apple"))
        case .offerID: .required(.text.length(1...100))
        case .signature: .optional(.oneOf(["v1", "v2"]))
        }
    }
}
