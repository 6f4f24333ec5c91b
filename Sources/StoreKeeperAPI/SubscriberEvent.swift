public import Foundation
public import StoreKeeperWire

/// One change of a subscriber's state, with its cause.
public struct SubscriberEvent: Codable, Sendable, Hashable {
    /// Increasing id.
    public var id: Int64
    /// When it was stored (the server's clock).
    public var createdAt: Date
    /// What happened: `receipt_posted`, `transaction_posted`, Apple's notification type and subtype (`DID_RENEW`,
    /// `DID_FAIL_TO_RENEW/GRACE_PERIOD`), `subscription_transferred_in` / `_out`, `transfer_refused`, `alias_added`.
    public var type: String
    /// Why: `client`, `notification`, `poll` or `identity`.
    public var cause: String
    /// The notification's UUID (or another id of the cause).
    public var causeID: String?
    /// The stored raw evidence it came from.
    public var evidenceID: Int64?
    /// Facts about it (transaction id, notification type, device id, how many transactions…), each a string,
    /// an integer or a boolean.
    public var detail: [String: EventDetailValue]

    /// Makes an event.
    public init(
        id: Int64, createdAt: Date, type: String, cause: String, causeID: String?, evidenceID: Int64?,
        detail: [String: EventDetailValue]
    ) {
        self.id = id
        self.createdAt = createdAt
        self.type = type
        self.cause = cause
        self.causeID = causeID
        self.evidenceID = evidenceID
        self.detail = detail
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, createdAt = "created_at", type, cause, causeID = "cause_id", evidenceID = "evidence_id", detail
    }

    /// Encodes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(type, forKey: .type)
        try c.encode(cause, forKey: .cause)
        try c.encode(causeID, forKey: .causeID)
        try c.encode(evidenceID, forKey: .evidenceID)
        try c.encode(detail, forKey: .detail)
    }
}

extension SubscriberEvent: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.integer)
        case .createdAt: .required(.text)
        case .type: .required(.text)
        case .cause: .required(.text)
        case .causeID: .optional(.text.nullable)
        case .evidenceID: .optional(.integer.nullable)
        case .detail: .optional(.map(of: .anyOf(types: ["string", "integer", "boolean"])))
        }
    }
}
