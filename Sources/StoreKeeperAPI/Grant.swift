public import Foundation
public import StoreKeeperWire

/// An entitlement support gave a customer without a purchase (`POST /v1/subscribers/{id}/entitlements/{entitlement}/grants`):
/// never revenue, shown beside the customer's purchases and joining the entitlement's sources while in force.
public struct Grant: Codable, Sendable, Hashable {
    /// The grant's id (`grant_` and a UUID): what ``Entitlement/grantedBy`` names while it gives the entitlement.
    public var id: String
    /// The entitlement it gives.
    public var entitlement: String
    /// When it was given.
    public var grantedAt: Date
    /// When it ends; `nil` for a lifetime grant.
    public var expiresAt: Date?
    /// When support revoked it; `nil` while not revoked.
    public var revokedAt: Date?
    /// Why it was given, as support wrote it.
    public var reason: String?
    /// Whether it gives its entitlement now.
    public var active: Bool
    /// Why, in sentences that quote the rule applied (`[support-grant]`).
    public var explanation: [String]

    /// Makes a grant.
    public init(
        id: String, entitlement: String, grantedAt: Date, expiresAt: Date?, revokedAt: Date?, reason: String?,
        active: Bool, explanation: [String]
    ) {
        self.id = id
        self.entitlement = entitlement
        self.grantedAt = grantedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.reason = reason
        self.active = active
        self.explanation = explanation
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, entitlement, grantedAt = "granted_at", expiresAt = "expires_at", revokedAt = "revoked_at", reason
        case active, explanation
    }
}

extension Grant: JSONWritable {
    /// The keys in the order the API's encoder writes them.
    public static let jsonKeys = JSONKeys<CodingKeys>()

    /// Gives one member to `writer`: the one statement both the byte writer and ``encode(to:)`` follow.
    public func writeJSONMember<Sink: JSONMemberSink>(_ key: CodingKeys, to writer: inout Sink) {
        switch key {
        case .id: writer.value(id)
        case .entitlement: writer.value(entitlement)
        case .grantedAt: writer.value(grantedAt)
        case .expiresAt: writer.value(expiresAt)
        case .revokedAt: writer.value(revokedAt)
        case .reason: writer.value(reason)
        case .active: writer.value(active)
        case .explanation: writer.value(explanation)
        }
    }
}

extension Grant: APIDocumented {
    /// What the object says of itself.
    public static let shape = APIObjectShape(
        description: "An entitlement support gave without a purchase: never revenue")

    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.text.described("grant_ and a UUID; the entitlement's granted_by while it is in force"))
        case .entitlement: .required(.text)
        case .grantedAt: .required(.dateTime)
        case .expiresAt: .required(.dateTime.nullable.described("null for a lifetime grant"))
        case .revokedAt: .required(.dateTime.nullable)
        case .reason: .required(.text.nullable)
        case .active: .required(.boolean)
        case .explanation: .required(.array(of: .text))
        }
    }
}
