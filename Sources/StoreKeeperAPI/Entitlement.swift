public import Foundation
public import StoreKeeperWire

/// Access the customer has now, and the purchase that grants it.
public struct Entitlement: Codable, Sendable, Hashable {
    /// The entitlement's name in the product → entitlement configuration (e.g. `pro`).
    public var identifier: String
    /// The product that grants it.
    public var productID: String
    /// When it ends unless renewed; `nil` for a lifetime purchase.
    public var expiresAt: Date?
    /// The transaction (or original transaction) that grants it.
    public var grantedBy: String

    /// Makes an entitlement.
    public init(identifier: String, productID: String, expiresAt: Date?, grantedBy: String) {
        self.identifier = identifier
        self.productID = productID
        self.expiresAt = expiresAt
        self.grantedBy = grantedBy
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, productID = "product_id", expiresAt = "expires_at", grantedBy = "granted_by"
    }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(productID, forKey: .productID)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(grantedBy, forKey: .grantedBy)
    }
}

extension Entitlement: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Writes one member, as ``encode(to:)`` encodes it.
    public func writeJSONMember(_ key: CodingKeys, to writer: inout JSONWriter) {
        switch key {
        case .identifier: writer.value(identifier)
        case .productID: writer.value(productID)
        case .expiresAt: writer.value(expiresAt)
        case .grantedBy: writer.value(grantedBy)
        }
    }
}

extension Entitlement: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .identifier: .required(.text)
        case .productID: .required(.text)
        case .expiresAt: .required(.dateTime.nullable)
        case .grantedBy: .required(.text)
        }
    }
}
