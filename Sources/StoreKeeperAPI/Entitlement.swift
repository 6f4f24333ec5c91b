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
}

extension Entitlement: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
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
