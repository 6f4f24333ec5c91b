import Foundation
import SubscriptionEngine

/// Decides what one write changes — the one place that does. Pure: from the write, the transfer policy and what
/// was read under the write's locks (``WriteReading``) to a ``WritePlan``; every executor only carries plans out.
enum WritePlanner {
    /// The plan for `write`.
    /// - Parameters:
    ///   - write: The evidence, its keys already the project's stored keys (``EvidenceWrite/keyed``).
    ///   - policy: What happens to a subscription another subscriber owns.
    ///   - reading: What the write found.
    ///   - announcer: Decides the events announced about each saved subscriber (none without one).
    ///   - folding: Folds each saved row's superseded history out of it (none without one).
    ///   - now: The server's clock.
    /// - Returns: The rows to write, the events, the announcements, the notification marks and the outcome.
    static func plan(
        _ write: EvidenceWrite, policy: TransferPolicy, reading: WriteReading,
        announcer: (any ChangeAnnouncer)?, folding: SubscriptionEngine? = nil, now: Date
    ) throws -> WritePlan {
        var plan = plan(write, policy: policy, reading: reading)
        if let folding { plan.saves = plan.saves.map { fold($0, folding, now: now) } }
        guard let announcer else { return plan }
        for save in plan.saves {
            let moved = plan.movedOwners.filter { $0.owner == save.user }.map { ProjectScope.value(ofKey: $0.original) }
            let change = change(
                of: save.user, bundleID: write.bundleID, row: reading.announced[save.user], evidence: save.evidence,
                transferredIn: Set(moved), cause: write.cause, causeID: write.notificationID, now: now)
            plan.announcements.append(
                PlannedAnnouncement(user: save.user, announcement: try announcer.announce(change)))
        }
        return plan
    }

    /// `save` with its superseded history folded out: the row keeps what answers from `now` on depend on (the
    /// same answers), the rest goes to history. Unchanged when nothing is superseded.
    static func fold(_ save: EvidenceSave, _ engine: SubscriptionEngine, now: Date) -> EvidenceSave {
        let split = engine.fold(save.evidence, at: now)
        guard !split.folded.isEmpty else { return save }
        var folded = save
        folded.before = save.rowBefore
        folded.change = .whole(split.kept)
        folded.folded.formUnion(split.folded)
        return folded
    }

    /// What an announcer is asked about one subscriber: after a write's save, or when the clock reaches the
    /// instant its answer may change (``EventCause/clock``, no new evidence).
    static func change(
        of user: String, bundleID: String, row: AnnouncedRow?, evidence: EvidenceSet, transferredIn: Set<String>,
        cause: EventCause, causeID: String?, now: Date
    ) -> SubscriberChange {
        SubscriberChange(
            appUserID: ProjectScope.value(ofKey: user), projectID: ProjectScope.id(ofKey: user),
            bundleID: bundleID, aliases: (row?.aliases ?? []).map(ProjectScope.value(ofKey:)).sorted(),
            firstSeen: row?.firstSeen, announced: row?.state, evidence: evidence, transferredIn: transferredIn,
            cause: cause, causeID: causeID, listening: row?.listening ?? false, now: now,
            attributes: row?.attributes ?? [:])
    }

    /// The plan's rows, events and marks: everything but the announcements.
    static func plan(_ write: EvidenceWrite, policy: TransferPolicy, reading: WriteReading) -> WritePlan {
        let originals = write.originalTransactionIDs
        guard let user = reading.user else {
            // Nobody to apply it to: a notification about no subscription is recorded; one about subscriptions
            // nobody owns yet waits for its owner.
            if originals.isEmpty {
                return WritePlan(outcome: .recorded, notification: NotificationMark(status: "recorded", parked: nil))
            }
            return WritePlan(
                outcome: .pending, notification: NotificationMark(status: "pending", parked: write.evidence))
        }
        var plan = WritePlan(outcome: .applied(appUserID: ProjectScope.value(ofKey: user)))
        var incoming = write.evidence
        var identityEvents: [PlannedEvent] = []
        var newlyOwned = Set<String>()
        // Subscriptions another subscriber owns, by owner: each owner's row is rewritten once however many of
        // its subscriptions this write names.
        var moving: [String: Set<String>] = [:]
        for original in originals {
            guard let owner = reading.owners[original] else {
                if newlyOwned.insert(original).inserted { plan.newOwners.append((original, user)) }
                continue
            }
            guard owner != user else { continue }
            let subscription = ProjectScope.value(ofKey: original)
            moving[owner, default: []].insert(subscription)
            switch policy {
            case .transfer:
                plan.movedOwners.append((original, user, owner))
                let detail = [
                    "original_transaction_id": subscription, "from": ProjectScope.value(ofKey: owner),
                    "to": ProjectScope.value(ofKey: user),
                ]
                identityEvents.append(identityEvent(owner, "subscription_transferred_out", detail, write))
                identityEvents.append(identityEvent(user, "subscription_transferred_in", detail, write))
            case .keepFirst:
                let detail = [
                    "original_transaction_id": subscription, "owner": ProjectScope.value(ofKey: owner),
                    "requester": ProjectScope.value(ofKey: user),
                ]
                identityEvents.append(identityEvent(user, "transfer_refused", detail, write))
            }
        }
        for (owner, subscriptions) in moving.sorted(by: { $0.key < $1.key }) {
            switch policy {
            case .transfer:
                // The subscriptions move with everything observed about them.
                guard var previous = reading.stored[owner]?.evidence else { continue }
                incoming.formUnion(previous.removeSubscriptions(subscriptions))
                plan.saves.append(EvidenceSave(user: owner, bundleID: write.bundleID, change: .whole(previous)))
            case .keepFirst:
                // The first owner keeps them, and what this write observed about them.
                let kept = incoming.removeSubscriptions(subscriptions)
                guard let existing = reading.stored[owner] else { continue }
                plan.saves.append(
                    EvidenceSave(user: owner, bundleID: write.bundleID, change: .union(stored: existing, added: kept)))
            }
        }
        // Notifications parked because nobody owned their subscriptions apply once somebody does.
        var lateEvents: [PlannedEvent] = []
        for parked in reading.parked where parked.originalTransactionIDs.contains(where: newlyOwned.contains) {
            incoming.formUnion(parked.evidence)
            plan.appliedLate.append(parked.id)
            lateEvents.append(
                PlannedEvent(
                    appUserID: user, type: parked.type, cause: .notification, causeID: parked.id,
                    detail: ["notification_id": .string(parked.id), "applied": "late"]))
        }
        plan.saves.append(
            EvidenceSave(
                user: user, bundleID: write.bundleID, change: .union(stored: reading.stored[user], added: incoming)))
        var detail = write.detail
        detail["kind"] = .string(write.kind)
        plan.events =
            [
                PlannedEvent(
                    appUserID: user, type: write.eventType, cause: write.cause, causeID: write.notificationID,
                    detail: detail)
            ] + identityEvents + lateEvents
        return plan
    }

    /// An event of a transfer or a refused one, caused by `write`'s notification if it has one.
    static func identityEvent(_ user: String, _ type: String, _ detail: [String: String], _ write: EvidenceWrite)
        -> PlannedEvent
    {
        PlannedEvent(
            appUserID: user, type: type, cause: .identity, causeID: write.notificationID,
            detail: detail.mapValues(EventValue.string))
    }
}
