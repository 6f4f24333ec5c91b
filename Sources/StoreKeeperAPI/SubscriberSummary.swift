public import Foundation

/// One customer in a project's list (`GET /v1/subscribers`): where they stand now, by their most telling
/// subscription.
public struct SubscriberSummary: Codable, Sendable, Hashable {
    /// The customer's id.
    public var appUserID: String
    /// `active`, `trial`, `grace`, `billing_retry`, `expired`, `revoked`, or `none` (never subscribed): the first of
    /// these, in this order, that one of the customer's subscriptions is in.
    public var status: String
    /// The product of that subscription (`nil` for `none`).
    public var productID: String?
    /// The entitlements the customer has now.
    public var entitlements: [String]
    /// When that subscription's current period ends.
    public var expiresAt: Date?
    /// That subscription's storefront (ISO 3166-1 alpha-3), when known.
    public var storefront: String?
    /// That subscription's environment (`Production`, `Sandbox`, `Xcode`), when known.
    public var environment: String?
    /// With an `attribute=` filter, who set the matching attribute: `server` (the owner's backend) or `client`
    /// (the app); `nil` without one.
    public var attributeSource: String?

    /// Makes a summary.
    public init(
        appUserID: String, status: String, productID: String?, entitlements: [String], expiresAt: Date?,
        storefront: String?, environment: String?, attributeSource: String? = nil
    ) {
        self.attributeSource = attributeSource
        self.appUserID = appUserID
        self.status = status
        self.productID = productID
        self.entitlements = entitlements
        self.expiresAt = expiresAt
        self.storefront = storefront
        self.environment = environment
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case appUserID = "app_user_id", status, productID = "product_id", entitlements, expiresAt = "expires_at"
        case storefront, environment, attributeSource = "attribute_source"
    }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appUserID, forKey: .appUserID)
        try c.encode(status, forKey: .status)
        try c.encode(productID, forKey: .productID)
        try c.encode(entitlements, forKey: .entitlements)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(storefront, forKey: .storefront)
        try c.encode(environment, forKey: .environment)
        try c.encode(attributeSource, forKey: .attributeSource)
    }
}

extension SubscriberSummary: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .appUserID: .required(.text)
        case .status: .required(.oneOf(["active", "trial", "grace", "billing_retry", "expired", "revoked", "none"]))
        case .productID: .required(.text.nullable)
        case .entitlements: .required(.array(of: .text))
        case .expiresAt: .required(.text.nullable)
        case .storefront: .required(.text.nullable)
        case .environment: .required(.text.nullable)
        case .attributeSource: .required(.oneOf(["server", "client"]).nullable)
        }
    }
}
