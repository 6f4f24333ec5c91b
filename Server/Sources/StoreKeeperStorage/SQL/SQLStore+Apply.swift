public import Foundation
import SubscriptionEngine

/// Applying a write: claim the evidence and the notification, decide the subscriber, transfer or refuse
/// subscriptions another subscriber owns, apply parked notifications, save the state and its events.
extension SQLStore {
    /// Stores and applies evidence in one transaction; see ``Store/apply(_:policy:now:)``.
    public func apply(_ write: EvidenceWrite, policy: TransferPolicy, now: Date) async throws -> ApplyOutcome {
        let write = write.keyed
        if let notificationQueue, write.appUserID == nil, write.notificationID != nil {
            return try await notificationQueue.submit(QueuedWrite(write: write, policy: policy, now: now)).0
        }
        return try await applyAlone(QueuedWrite(write: write, policy: policy, now: now)).0
    }

    /// Applies one write in its own transaction and publishes the subscribers it changed.
    func applyAlone(_ queued: QueuedWrite) async throws -> (ApplyOutcome, Set<String>) {
        let result: (ApplyOutcome, Set<String>)
        do {
            result = try await database.withTransaction { tx in
                try await applyInTransaction(tx, queued.write, policy: queued.policy, now: queued.now)
            }
        } catch is DuplicateNotification {
            return (.duplicate, [])
        }
        changes.publish(.changed(result.1.sorted()))
        return result
    }

    /// Thrown inside the transaction to roll back a duplicate delivery, so it changes nothing.
    struct DuplicateNotification: Error {}

    /// The work of ``apply(_:policy:now:)`` inside its transaction.
    /// - Returns: The outcome, and the subscribers whose rows it wrote.
    func applyInTransaction(_ tx: any SQLTransaction, _ write: EvidenceWrite, policy: TransferPolicy, now: Date)
        async throws
        -> (ApplyOutcome, Set<String>)
    {
        let originals = write.originalTransactionIDs
        // Serialise work on the same subscriptions, then on the same subscribers (always in this order, each
        // sorted, so two writers cannot deadlock). SQLite transactions are serial already.
        try await Self.lock(tx, originals.map { "otid:\($0)" })
        let claim = try await Self.claim(tx, write, now: now)
        // A second delivery of a notification finds its id taken and rolls back whatever it wrote.
        guard claim.claimed else { throw DuplicateNotification() }
        let evidenceID = claim.evidenceID
        let notificationID = write.notificationID ?? "evidence-\(evidenceID)"
        // Who does this evidence belong to?
        var owners = claim.owners
        func target() async throws -> String? {
            if let posted = write.appUserID { return try await Self.canonical(tx, posted) }
            return originals.lazy.compactMap { owners[$0] }.first
        }
        var user = try await target()
        var locked = Set(user.map { [$0] } ?? []).union(owners.values)
        var preloaded: (user: String, json: String?)?
        let alreadyLocked = claim.locked.map { write.appUserID == nil && locked == [$0.user] } ?? false
        if alreadyLocked, let row = claim.locked {
            // PostgreSQL's usual case, a notification for a subscription one subscriber owns: the claim already
            // locked that subscriber's row and read its evidence. (Ownership of these subscriptions changes only
            // under their lock, which this transaction holds, or by an alias merge, which deletes the row.)
            preloaded = (row.user, row.evidenceJSON)
        } else {
            try await Self.lock(tx, locked.map { "user:\($0)" })
        }
        if !alreadyLocked {
            // An alias merge may have moved these subscriptions before the users were locked: look again (with
            // the evidence, which is usually all that is needed), and lock whoever owns them now.
            try await tx.dialect.recheckingAfterLocks {
                let fresh = try await Self.ownersAndEvidence(tx, originals, user: user)
                if fresh.owners == owners, write.appUserID == nil {
                    if let user { preloaded = (user, fresh.evidenceJSON) }
                } else {
                    owners = fresh.owners
                    user = try await target()
                    let now = Set(user.map { [$0] } ?? []).union(owners.values)
                    try await Self.lock(tx, now.subtracting(locked).map { "user:\($0)" })
                    locked.formUnion(now)
                }
            }
        }
        let reading = try await read(tx, write, owners: owners, user: user, preloaded: preloaded)
        let plan = try WritePlanner.plan(
            write, policy: policy, reading: reading, announcer: announcer, folding: folding, now: now)
        try await execute(plan, tx, write, notificationID: notificationID, evidenceID: evidenceID, now: now)
        return (plan.outcome, plan.changed)
    }

    /// What the planner needs, read under the write's locks: the stored evidence of its subscriber and of the
    /// owners of its subscriptions, and the parked notifications when one of its subscriptions has no owner.
    /// - Parameter preloaded: A subscriber's row already read (and locked) by the claim, if any.
    func read(
        _ tx: any SQLTransaction, _ write: EvidenceWrite, owners: [String: String], user: String?,
        preloaded: (user: String, json: String?)?
    ) async throws -> WriteReading {
        var reading = WriteReading(owners: owners, user: user, stored: [:], parked: [])
        guard let user else { return reading }
        for subscriber in Set([user]).union(owners.values).sorted() {
            if let preloaded, preloaded.user == subscriber {
                reading.stored[subscriber] = try preloaded.json.map {
                    StoredEvidence(json: $0, evidence: try evidenceCache.evidence($0, for: subscriber))
                }
            } else {
                reading.stored[subscriber] = try await Self.loadEvidence(tx, subscriber, evidenceCache)
            }
        }
        let unowned = Set(write.originalTransactionIDs.filter { owners[$0] == nil })
        if !unowned.isEmpty { reading.parked = try await Self.parkedNotifications(tx, about: unowned) }
        if announcer != nil {
            reading.announced = try await Self.announcedRows(tx, users: Set([user]).union(owners.values).sorted())
        }
        return reading
    }

    /// The notifications parked about any of these subscriptions, oldest first.
    static func parkedNotifications(_ tx: any SQLTransaction, about originals: Set<String>) async throws
        -> [ParkedNotification]
    {
        let rows = try await tx.query(
            "SELECT notification_id, type, original_transaction_ids, pending_json FROM notifications WHERE status = 'pending' ORDER BY received_at, notification_id",
            [])
        var parked: [ParkedNotification] = []
        for row in rows {
            let ids = (row["original_transaction_ids"]?.string ?? "").split(separator: ",").map(String.init)
            guard ids.contains(where: originals.contains) else { continue }
            let id = row["notification_id"]?.string ?? ""
            guard let json = row["pending_json"]?.string,
                let evidence = try? JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
            else { throw StorageError("notification \(id) is pending but its parked evidence cannot be read") }
            parked.append(
                ParkedNotification(
                    id: id, type: row["type"]?.string ?? "notification", originalTransactionIDs: ids,
                    evidence: evidence))
        }
        return parked
    }

    /// Writes what `plan` says, in the write's transaction (SQLite, and PostgreSQL one write at a time).
    func execute(
        _ plan: WritePlan, _ tx: any SQLTransaction, _ write: EvidenceWrite, notificationID: String,
        evidenceID: Int64, now: Date
    ) async throws {
        // Rollups count the change before the statements (their whole-history customers as they still are).
        let rollups = try await prepareRollups(
            tx,
            plan.saves.map { save in
                RollupChange(
                    user: save.user, before: plan.movedOwners.isEmpty ? save.rowBefore : nil, after: save.evidence,
                    folded: save.folded)
            })
        if let mark = plan.notification {
            try await Self.recordNotification(
                tx, write, notificationID, evidenceID, status: mark.status,
                pending: try mark.parked.map(evidenceEncoder.encode), now: now)
        }
        for (original, owner) in plan.newOwners {
            try await tx.query(
                "INSERT INTO ownership (original_transaction_id, app_user_id, bundle_id) VALUES (?, ?, ?) ON CONFLICT (original_transaction_id) DO NOTHING",
                [.text(original), .text(owner), .text(write.bundleID)])
        }
        for (original, owner, previous) in plan.movedOwners {
            try await tx.query(
                "UPDATE ownership SET app_user_id = ? WHERE original_transaction_id = ?",
                [.text(owner), .text(original)])
            try await Self.moveHistory(tx, of: original, from: previous, to: owner)
        }
        for id in plan.appliedLate {
            try await tx.query(
                "UPDATE notifications SET status = 'applied', pending_json = NULL WHERE notification_id = ?",
                [.text(id)])
        }
        for save in plan.saves.dropLast() { try await saveEvidence(tx, save, now: now) }
        // The write's own subscriber last, with every event (one statement on PostgreSQL).
        if let last = plan.saves.last {
            try await self.save(tx, last, events: plan.events, evidenceID: evidenceID, now: now)
        }
        try await Self.insertHistory(tx, try plan.saves.flatMap(historyRows))
        try await finishRollups(tx, rollups)
        try await Self.writeAnnouncements(tx, plan.announcements, now: now)
    }

    /// Marks a claimed notification `recorded` or `pending` (or inserts the row for evidence without one).
    static func recordNotification(
        _ tx: any SQLTransaction, _ write: EvidenceWrite, _ id: String, _ evidenceID: Int64, status: String,
        pending: String?,
        now: Date
    ) async throws {
        if write.notificationID != nil {
            try await tx.query(
                "UPDATE notifications SET status = ?, pending_json = ? WHERE notification_id = ?",
                [.text(status), pending.map(SQLValue.text) ?? .null, .text(id)])
        } else {
            try await tx.query(
                "INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids, pending_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (notification_id) DO NOTHING",
                [
                    .text(id), .text(write.bundleID), .text(write.eventType), .text(status), .text(timestamp(now)),
                    .integer(evidenceID), .text(write.originalTransactionIDs.joined(separator: ",")),
                    pending.map(SQLValue.text) ?? .null,
                ])
        }
    }
}
