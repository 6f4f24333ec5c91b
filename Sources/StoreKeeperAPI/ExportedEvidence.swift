public import Foundation

/// One piece of raw evidence in a ``SubscriberExport``: what the app or Apple sent, byte for byte.
public struct ExportedEvidence: Codable, Sendable, Hashable {
    /// Its id, as ``SubscriberEvent/evidenceID`` names it.
    public var id: Int64
    /// What it is: `receipt`, `signed_transaction`, `notification_v2`, `support`…
    public var kind: String
    /// When it arrived (the server's clock).
    public var receivedAt: Date
    /// The text as it arrived (empty once the retention window purged it).
    public var body: String

    /// Makes a piece of evidence.
    public init(id: Int64, kind: String, receivedAt: Date, body: String) {
        self.id = id
        self.kind = kind
        self.receivedAt = receivedAt
        self.body = body
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case id, kind, receivedAt = "received_at", body }
}

extension ExportedEvidence: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .id: .required(.integer)
        case .kind: .required(.text)
        case .receivedAt: .required(.text)
        case .body: .required(.text)
        }
    }
}
