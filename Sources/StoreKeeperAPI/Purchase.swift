public import Foundation
public import StoreKeeperWire

/// A purchase that is not an auto-renewable subscription.
public struct Purchase: Codable, Sendable, Hashable {
    /// The transaction id.
    public var transactionID: String
    /// The product id.
    public var productID: String
    /// `consumable`, `nonConsumable`, `nonRenewing` or `unknown`.
    public var kind: String
    /// When it was bought.
    public var purchaseDate: Date?
    /// When a non-renewing subscription's access ends.
    public var expiresAt: Date?
    /// When it was refunded or revoked.
    public var revokedAt: Date?
    /// Whether it grants access now.
    public var grantsAccess: Bool
    /// Why, in sentences that quote the rules applied.
    public var explanation: [String]

    /// Makes a purchase.
    public init(
        transactionID: String, productID: String, kind: String, purchaseDate: Date?, expiresAt: Date?, revokedAt: Date?,
        grantsAccess: Bool, explanation: [String]
    ) {
        self.transactionID = transactionID
        self.productID = productID
        self.kind = kind
        self.purchaseDate = purchaseDate
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.grantsAccess = grantsAccess
        self.explanation = explanation
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionID = "transaction_id", productID = "product_id", kind, purchaseDate = "purchase_date"
        case expiresAt = "expires_at", revokedAt = "revoked_at", grantsAccess = "grants_access", explanation
    }
}

extension Purchase: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .transactionID: writer.value(transactionID)
        case .productID: writer.value(productID)
        case .kind: writer.value(kind)
        case .purchaseDate: writer.value(purchaseDate)
        case .expiresAt: writer.value(expiresAt)
        case .revokedAt: writer.value(revokedAt)
        case .grantsAccess: writer.value(grantsAccess)
        case .explanation: writer.value(explanation)
        }
    }
}

extension Purchase: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .transactionID: .required(.text)
        case .productID: .required(.text)
        case .kind: .required(.text)
        case .purchaseDate: .required(.dateTime.nullable)
        case .expiresAt: .required(.dateTime.nullable)
        case .revokedAt: .required(.dateTime.nullable)
        case .grantsAccess: .required(.boolean)
        case .explanation: .required(.array(of: .text))
        }
    }
}
