public import Foundation
public import StoreKeeperWire

/// One change of a subscriber's state, as delivered to the owner's webhook endpoints (`POST` with the
/// `StoreKeeper-Signature` header). Receivers deduplicate by ``id``: delivery is at least once.
public struct WebhookEvent: Codable, Sendable, Hashable {
    /// The event's id, the same in every delivery of it.
    public var id: String
    /// What changed: `initial_purchase`, `renewal`, `product_change`, `cancellation`, `uncancellation`,
    /// `billing_issue`, `billing_recovery`, `grace_period_expired`, `expiration`, `refund`, `refund_reversed`,
    /// `subscription_extended`, `transfer`, `non_renewing_purchase`, `consent_rescinded` or `test`.
    public var type: String
    /// When StoreKeeper learned of it (the server's clock).
    public var createdAt: Date
    /// `Production` or `Sandbox`, when the evidence says.
    public var environment: String?
    /// The app (bundle id) whose write or clock found it.
    public var app: String
    /// The subscriber.
    public var appUserID: String
    /// The subscriber's other ids.
    public var aliases: [String]
    /// The subscription (`nil` for a purchase that is not an auto-renewable subscription).
    public var originalTransactionID: String?
    /// The transaction that decided the new state.
    public var transactionID: String?
    /// The product.
    public var productID: String
    /// The entitlements the product grants.
    public var entitlements: [String]
    /// `trial`, `intro`, `promotional`, `offer_code`, `win_back` or `normal`.
    public var periodType: String?
    /// When the current period (or the purchase) was bought.
    public var purchasedAt: Date?
    /// When the current period ends.
    public var expiresAt: Date?
    /// The price in milliunits of ``currency``, when known.
    public var price: Int64?
    /// ISO 4217 currency code, when known.
    public var currency: String?
    /// When the App Store says the change happened, when the evidence tells.
    public var storeTimestamp: Date?
    /// What made StoreKeeper notice: `client`, `notification`, `poll`, `identity`, `clock` or `test`.
    public var cause: String
    /// The `GET /v1/subscribers/{id}` subscriber document at that moment.
    public var subscriber: Subscriber
    /// The customer's attributes when the event was written (`{}` when none).
    public var attributes: [String: String]

    /// Makes an event.
    public init(
        id: String, type: String, createdAt: Date, environment: String?, app: String, appUserID: String,
        aliases: [String], originalTransactionID: String?, transactionID: String?, productID: String,
        entitlements: [String], periodType: String?, purchasedAt: Date?, expiresAt: Date?, price: Int64?,
        currency: String?, storeTimestamp: Date?, cause: String, subscriber: Subscriber,
        attributes: [String: String] = [:]
    ) {
        self.attributes = attributes
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.environment = environment
        self.app = app
        self.appUserID = appUserID
        self.aliases = aliases
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.entitlements = entitlements
        self.periodType = periodType
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.price = price
        self.currency = currency
        self.storeTimestamp = storeTimestamp
        self.cause = cause
        self.subscriber = subscriber
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, type, createdAt = "created_at", environment, app, appUserID = "app_user_id", aliases
        case originalTransactionID = "original_transaction_id", transactionID = "transaction_id"
        case productID = "product_id", entitlements, periodType = "period_type", purchasedAt = "purchased_at"
        case expiresAt = "expires_at", price, currency, storeTimestamp = "store_timestamp", cause, subscriber
        case attributes
    }

    /// Decodes an event; `attributes` (added later) defaults to none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        type = try c.decode(String.self, forKey: .type)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        environment = try c.decodeIfPresent(String.self, forKey: .environment)
        app = try c.decode(String.self, forKey: .app)
        appUserID = try c.decode(String.self, forKey: .appUserID)
        aliases = try c.decode([String].self, forKey: .aliases)
        originalTransactionID = try c.decodeIfPresent(String.self, forKey: .originalTransactionID)
        transactionID = try c.decodeIfPresent(String.self, forKey: .transactionID)
        productID = try c.decode(String.self, forKey: .productID)
        entitlements = try c.decode([String].self, forKey: .entitlements)
        periodType = try c.decodeIfPresent(String.self, forKey: .periodType)
        purchasedAt = try c.decodeIfPresent(Date.self, forKey: .purchasedAt)
        expiresAt = try c.decodeIfPresent(Date.self, forKey: .expiresAt)
        price = try c.decodeIfPresent(Int64.self, forKey: .price)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        storeTimestamp = try c.decodeIfPresent(Date.self, forKey: .storeTimestamp)
        cause = try c.decode(String.self, forKey: .cause)
        subscriber = try c.decode(Subscriber.self, forKey: .subscriber)
        attributes = try c.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
    }
}

extension WebhookEvent: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .id: writer.value(id)
        case .type: writer.value(type)
        case .createdAt: writer.value(createdAt)
        case .environment: writer.value(environment)
        case .app: writer.value(app)
        case .appUserID: writer.value(appUserID)
        case .aliases: writer.value(aliases)
        case .originalTransactionID: writer.value(originalTransactionID)
        case .transactionID: writer.value(transactionID)
        case .productID: writer.value(productID)
        case .entitlements: writer.value(entitlements)
        case .periodType: writer.value(periodType)
        case .purchasedAt: writer.value(purchasedAt)
        case .expiresAt: writer.value(expiresAt)
        case .price: writer.value(price)
        case .currency: writer.value(currency)
        case .storeTimestamp: writer.value(storeTimestamp)
        case .cause: writer.value(cause)
        case .subscriber: writer.value(subscriber)
        case .attributes: writer.value(attributes)
        }
    }
}

extension WebhookEvent: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.text)
        case .type: .required(.named("WebhookEventType"))
        case .createdAt: .required(.dateTime)
        case .environment: .required(.text.nullable)
        case .app: .required(.text)
        case .appUserID: .required(.text)
        case .aliases: .required(.array(of: .text))
        case .originalTransactionID: .required(.text.nullable)
        case .transactionID: .required(.text.nullable)
        case .productID: .required(.text)
        case .entitlements: .required(.array(of: .text))
        case .periodType: .required(.text.nullable)
        case .purchasedAt: .required(.dateTime.nullable)
        case .expiresAt: .required(.dateTime.nullable)
        case .price: .required(.integer.nullable.described("Milliunits of currency"))
        case .currency: .required(.text.nullable)
        case .storeTimestamp: .required(.dateTime.nullable)
        case .cause: .required(.text)
        case .subscriber: .required(.type(Subscriber.self))
        case .attributes:
            .required(.map(of: .text).described("The customer's attributes when the event was written ({} when none)"))
        }
    }
}
