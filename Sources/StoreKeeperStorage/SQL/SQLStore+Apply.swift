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
        let cache = evidenceCache
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
        if tx.dialect == .postgres, !alreadyLocked {
            // An alias merge may have moved these subscriptions before the users were locked: look again (with
            // the evidence, which is usually all that is needed), and lock whoever owns them now.
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
        guard let user else {
            if originals.isEmpty {
                try await Self.recordNotification(
                    tx, write, notificationID, evidenceID, status: "recorded", pending: nil, now: now)
                return (.recorded, [])
            }
            let parked = try evidenceEncoder.encode(write.evidence)
            try await Self.recordNotification(
                tx, write, notificationID, evidenceID, status: "pending", pending: parked, now: now)
            return (.pending, [])
        }
        var incoming = write.evidence
        var events: [(String, String, EventCause, String?, [String: String])] = []
        var newlyOwned = Set<String>()
        // Subscriptions another subscriber owns, by owner: each owner's evidence is read and rewritten once
        // however many of its subscriptions this write names.
        var moving: [String: Set<String>] = [:]
        for original in originals {
            guard let owner = owners[original] else {
                try await tx.query(
                    "INSERT INTO ownership (original_transaction_id, app_user_id, bundle_id) VALUES (?, ?, ?) ON CONFLICT (original_transaction_id) DO NOTHING",
                    [.text(original), .text(user), .text(write.bundleID)])
                newlyOwned.insert(original)
                continue
            }
            guard owner != user else { continue }
            moving[owner, default: []].insert(ProjectScope.value(ofKey: original))
            switch policy {
            case .transfer:
                try await tx.query(
                    "UPDATE ownership SET app_user_id = ? WHERE original_transaction_id = ?",
                    [.text(user), .text(original)])
                let detail = [
                    "original_transaction_id": ProjectScope.value(ofKey: original),
                    "from": ProjectScope.value(ofKey: owner),
                    "to": ProjectScope.value(ofKey: user),
                ]
                events.append((owner, "subscription_transferred_out", .identity, nil, detail))
                events.append((user, "subscription_transferred_in", .identity, nil, detail))
            case .keepFirst:
                events.append(
                    (
                        user, "transfer_refused", .identity, nil,
                        [
                            "original_transaction_id": ProjectScope.value(ofKey: original),
                            "owner": ProjectScope.value(ofKey: owner),
                            "requester": ProjectScope.value(ofKey: user),
                        ]
                    ))
            }
        }
        for (owner, subscriptions) in moving.sorted(by: { $0.key < $1.key }) {
            switch policy {
            case .transfer:
                // The subscriptions move with everything observed about them.
                if var previous = try await Self.loadEvidence(tx, owner, cache) {
                    incoming.formUnion(previous.removeSubscriptions(subscriptions))
                    try await saveEvidence(tx, owner, write.bundleID, previous, now: now)
                }
            case .keepFirst:
                // The first owner keeps them, and what this write observed about them.
                let kept = incoming.removeSubscriptions(subscriptions)
                if var existing = try await Self.loadEvidence(tx, owner, cache) {
                    existing.formUnion(kept)
                    try await saveEvidence(tx, owner, write.bundleID, existing, now: now)
                }
            }
        }
        var evidence: EvidenceSet
        if let preloaded, preloaded.user == user {
            evidence = try preloaded.json.map { try cache.evidence($0, for: user) } ?? EvidenceSet()
        } else {
            evidence = try await Self.loadEvidence(tx, user, cache) ?? EvidenceSet()
        }
        evidence.formUnion(incoming)
        // Notifications parked because nobody owned their subscriptions apply once somebody does.
        if !newlyOwned.isEmpty {
            let pending = try await tx.query(
                "SELECT notification_id, type, original_transaction_ids, pending_json, evidence_id FROM notifications WHERE status = 'pending' ORDER BY received_at, notification_id",
                [])
            for row in pending {
                let ids = (row["original_transaction_ids"]?.string ?? "").split(separator: ",").map(String.init)
                guard ids.contains(where: newlyOwned.contains), let json = row["pending_json"]?.string,
                    let parked = try? JSONDecoder().decode(EvidenceSet.self, from: Data(json.utf8))
                else { continue }
                evidence.formUnion(parked)
                try await tx.query(
                    "UPDATE notifications SET status = 'applied', pending_json = NULL WHERE notification_id = ?",
                    [row["notification_id"] ?? .null])
                events.append(
                    (
                        user, row["type"]?.string ?? "notification", .notification, row["notification_id"]?.string,
                        [
                            "notification_id": row["notification_id"]?.string ?? "", "applied": "late",
                        ]
                    ))
            }
        }
        var detail = write.detail
        detail["kind"] = write.kind
        var pending = [
            PendingEvent(
                appUserID: user, type: write.eventType, cause: write.cause, causeID: write.notificationID,
                detail: detail)
        ]
        for (who, type, cause, causeID, facts) in events {
            pending.append(
                PendingEvent(
                    appUserID: who, type: type, cause: cause, causeID: causeID ?? write.notificationID, detail: facts))
        }
        try await save(tx, user, write.bundleID, evidence, events: pending, evidenceID: evidenceID, now: now)
        // Rows written: the subscriber's, and the other party's in a transfer or refused transfer.
        return (.applied(appUserID: ProjectScope.value(ofKey: user)), Set([user] + events.map { $0.0 }))
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
