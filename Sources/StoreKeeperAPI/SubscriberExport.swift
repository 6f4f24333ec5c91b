public import Foundation

/// The answer of `GET /v1/subscribers/{id}/export`: everything the project holds about one customer, for a data
/// access request (GDPR article 15, CCPA's right to know): the subscriber as the engine reads it now, every
/// attribute (personal ones included), every event and the raw evidence they were written from.
public struct SubscriberExport: Codable, Sendable, Hashable {
    /// The server's clock when it was read.
    public var exportedAt: Date
    /// The subscriber, as `GET /v1/subscribers/{id}` answers it (an alias resolves to its customer).
    public var subscriber: Subscriber
    /// Every attribute, by name, personal ones (`$email`…) included.
    public var attributes: [String: String]
    /// Every event, oldest first.
    public var events: [SubscriberEvent]
    /// The raw evidence the events came from, oldest first.
    public var evidence: [ExportedEvidence]

    /// Makes an export.
    public init(
        exportedAt: Date, subscriber: Subscriber, attributes: [String: String], events: [SubscriberEvent],
        evidence: [ExportedEvidence]
    ) {
        self.exportedAt = exportedAt
        self.subscriber = subscriber
        self.attributes = attributes
        self.events = events
        self.evidence = evidence
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case exportedAt = "exported_at", subscriber, attributes, events, evidence
    }
}

extension SubscriberExport: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .exportedAt: .required(.text)
        case .subscriber: .required(.type(Subscriber.self))
        case .attributes: .required(.map(of: .text))
        case .events: .required(.array(of: .type(SubscriberEvent.self)))
        case .evidence: .required(.array(of: .type(ExportedEvidence.self)))
        }
    }
}
