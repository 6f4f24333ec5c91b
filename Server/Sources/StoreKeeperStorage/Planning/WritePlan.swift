import SubscriptionEngine

/// Everything one write changes, decided by ``WritePlanner`` from a ``WriteReading``: a plain value that an
/// executor (SQLite, PostgreSQL, PostgreSQL group commit) writes and nothing else.
struct WritePlan {
    /// What the caller is told.
    var outcome: ApplyOutcome
    /// Subscriptions nobody owned, now owned by the write's subscriber: `(original, owner)`.
    var newOwners: [(original: String, owner: String)] = []
    /// Subscriptions moved to the write's subscriber (transfer policy): `(original, owner, previous owner)`.
    var movedOwners: [(original: String, owner: String, previous: String)] = []
    /// Subscriber rows to write, in order: other subscribers first, the write's own subscriber last.
    var saves: [EvidenceSave] = []
    /// Events to append, in order.
    var events: [PlannedEvent] = []
    /// The write's own notification row, when it applies to nobody: `recorded`, or `pending` with its
    /// observations parked.
    var notification: NotificationMark?
    /// Parked notifications this write applies (marked `applied`), oldest first.
    var appliedLate: [String] = []
    /// With an announcer: what is announced about each saved subscriber, in the order of ``saves``.
    var announcements: [PlannedAnnouncement] = []

    /// The subscribers whose rows this plan writes (their changes are published after the commit).
    var changed: Set<String> { Set(saves.map(\.user) + events.map(\.appUserID)) }
}

/// One subscriber row to write.
struct EvidenceSave {
    /// The subscriber (stored key).
    var user: String
    /// The app the row is written for (a new row's `bundle_id`).
    var bundleID: String
    /// The new evidence.
    var change: EvidenceChange
    /// Observations folded out of the row (superseded history, ``SubscriptionEngine/fold(_:at:)``): appended to the
    /// subscriber's history instead.
    var folded = EvidenceSet()
    /// The row's evidence before the write, once ``change`` no longer says it (a fold rewrites the row whole).
    var before: EvidenceSet?

    /// The row's evidence before the write (empty for a new row); `nil` for a row replaced whole.
    var rowBefore: EvidenceSet? {
        if let before { return before }
        guard case .union(let stored, _) = change else { return nil }
        return stored?.evidence ?? EvidenceSet()
    }

    /// The evidence the row holds afterwards.
    var evidence: EvidenceSet {
        switch change {
        case .whole(let evidence): evidence
        case .union(let stored, let added):
            stored.map {
                var union = $0.evidence; union.formUnion(added); return union
            } ?? added
        }
    }
}

/// How a subscriber's evidence changes.
enum EvidenceChange {
    /// What was stored (if anything), with observations added: written by extending the stored JSON.
    case union(stored: StoredEvidence?, added: EvidenceSet)
    /// Replaced whole (observations moved out in a transfer).
    case whole(EvidenceSet)
}

/// One event to append.
struct PlannedEvent: Equatable {
    /// The subscriber (stored key).
    var appUserID: String
    /// The event type.
    var type: String
    /// What caused it.
    var cause: EventCause
    /// The notification id, if one caused it.
    var causeID: String?
    /// Its facts.
    var detail: [String: EventValue]
}

/// What one write announces about one subscriber: the state to remember and the events for the outbox.
struct PlannedAnnouncement {
    /// The subscriber (stored key).
    var user: String
    /// The announcer's answer.
    var announcement: Announcement
}

/// The status a write gives its own notification row when it applies to nobody.
struct NotificationMark: Equatable {
    /// `recorded` (about no subscription) or `pending` (about subscriptions nobody owns yet).
    var status: String
    /// The observations kept until somebody owns the subscriptions (`pending` only).
    var parked: EvidenceSet?
}
