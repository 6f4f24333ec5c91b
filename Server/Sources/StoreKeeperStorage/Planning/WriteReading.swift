import Foundation
import SubscriptionEngine

/// What a write found in the database, read under its locks: everything ``WritePlanner`` decides from.
///
/// Keys are the project's stored keys (see ``ProjectScope``). What to read follows from the write and the
/// owners alone, never from a decision: the stored evidence of the write's subscriber and of every owner of its
/// subscriptions, and — when one of its subscriptions has no owner yet — the notifications parked for want of one.
struct WriteReading {
    /// Who owns each of the write's subscriptions (those nobody owns are absent).
    var owners: [String: String]
    /// Whom the write is for: the posted app user id resolved through aliases, otherwise the owner of the first
    /// owned subscription; `nil` when neither exists.
    var user: String?
    /// The stored evidence of ``user`` and of each owner in ``owners`` (a subscriber without a row is absent).
    var stored: [String: StoredEvidence]
    /// Parked notifications about any of the write's subscriptions, oldest first (read only when one of them
    /// has no owner).
    var parked: [ParkedNotification]
    /// With an announcer: what was announced about each subscriber in ``stored`` (and ``user``), read under the
    /// same locks; empty without one.
    var announced: [String: AnnouncedRow] = [:]
}

/// What a write reads to announce a subscriber's changes.
struct AnnouncedRow {
    /// What was announced before (`nil`: nothing yet).
    var state: AnnouncedState?
    /// The subscriber's aliases (stored keys).
    var aliases: [String]
    /// When its row was first stored.
    var firstSeen: Date?
    /// Whether its project has a webhook endpoint.
    var listening: Bool
    /// The subscriber's attributes.
    var attributes: [String: String] = [:]
}

/// A subscriber's stored evidence: the JSON as stored, and its decoded value.
struct StoredEvidence {
    /// The stored `evidence_json`.
    var json: String
    /// What it decodes to.
    var evidence: EvidenceSet
}

/// A notification stored `pending` because nobody owned its subscriptions when it arrived.
struct ParkedNotification: Equatable {
    /// The notification id.
    var id: String
    /// Its type (the event type it records when applied).
    var type: String
    /// The subscriptions it is about (stored keys).
    var originalTransactionIDs: [String]
    /// The observations it carries.
    var evidence: EvidenceSet
}
