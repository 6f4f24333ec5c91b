public import Foundation
import SubscriptionEngine

/// PostgreSQL group commit: notifications that arrive together are applied in one transaction of six
/// statements, whatever their number — begin; read who owns their subscriptions; lock the subscriptions, those
/// subscribers and the notification ids; store all raw evidence, claim all ids and lock and read the
/// subscribers' rows; save every changed row, event and parked notification; commit. Each notification is
/// still answered only after the commit that carried it.
///
/// The group covers the usual case: every subscription a notification is about is owned by one subscriber
/// (or none: it is parked until one is), and ownership did not change between the first read and the locks.
/// Anything else — a notification whose subscriptions two subscribers own, or only some of them — rolls the
/// group back and its notifications run one at a time through ``SQLStore/apply(_:policy:now:)``'s full path.
extension SQLStore {
    /// One write waiting in ``notificationQueue``.
    public struct QueuedWrite: Sendable {
        /// The evidence.
        public var write: EvidenceWrite
        /// The transfer policy.
        public var policy: TransferPolicy
        /// The server's clock when it arrived.
        public var now: Date
    }

    /// Thrown inside a group when a write is not the usual case: the group rolls back and its writes run again
    /// one at a time.
    struct GroupConflict: Error {}

    /// Applies `writes` in one transaction, in order; when that cannot be done (see ``GroupConflict``) or fails,
    /// each on its own, so one write's failure is its own. Publishes the changes before returning.
    /// - Parameter writes: Notifications (no posted app user id, a notification id).
    /// - Returns: Each write's outcome and the subscribers it changed, or its error.
    func applyGroup(_ writes: [QueuedWrite]) async -> [Result<(ApplyOutcome, Set<String>), any Error>] {
        if writes.count >= smallestGroup {
            do {
                let results = try await applyTogether(writes)
                groupTally.count(together: writes.count)
                changes.publish(.changed(Set(results.flatMap(\.1)).sorted()))
                return results.map { .success($0) }
            } catch let error as DatabaseUnavailable {
                // One at a time would wait for the database once per write: they all fail now, and are retried.
                return writes.map { _ in .failure(error) }
            } catch {
                groupTally.count(alone: writes.count, because: error)
            }
        }
        var results: [Result<(ApplyOutcome, Set<String>), any Error>] = []
        for queued in writes {
            if case .failure(let error as DatabaseUnavailable)? = results.last {
                results.append(.failure(error))
                continue
            }
            do {
                results.append(.success(try await applyAlone(queued)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// The group's transaction.
    func applyTogether(_ writes: [QueuedWrite]) async throws -> [(ApplyOutcome, Set<String>)] {
        try await database.withTransaction { tx in
            let originals = Set(writes.flatMap(\.write.originalTransactionIDs)).sorted()
            let owners = try await Self.owners(tx, originals)
            let users = Set(owners.values).sorted()
            let notificationIDs = writes.compactMap(\.write.notificationID)
            guard notificationIDs.count == writes.count else { throw GroupConflict() }
            try await Self.lock(
                tx,
                originals.map { "otid:\($0)" } + users.map { "user:\($0)" }
                    + notificationIDs.map { "notification:\($0)" })
            let claimed = try await claimAll(tx, writes, originals: originals, users: users)
            guard claimed.owners == owners else { throw GroupConflict() }

            // Each write is planned against the group's rows as the writes before it left them, and the plans
            // are written together: the group carries out only plans that add to one owner's row.
            var rows: [String: StoredEvidence] = [:]
            var saves: [(user: String, bundleID: String)] = []
            var events: [(PlannedEvent, Int64)] = []
            var marks: [(id: String, status: String, pending: String)] = []
            var results: [(ApplyOutcome, Set<String>)] = []
            var seen = Set<String>()
            var announced = announcer == nil ? [:] : try await Self.announcedRows(tx, users: users)
            var announcements: [PlannedAnnouncement] = []
            var history: [HistoryRow] = []
            var rollupChanges: [String: RollupChange] = [:]
            for queued in writes {
                let write = queued.write
                let id = write.notificationID ?? ""
                guard seen.insert(id).inserted, let evidenceID = claimed.evidenceIDs[id] else {
                    results.append((.duplicate, []))
                    continue
                }
                var groupReading = try reading(write, owners: owners, claimed: claimed, rows: &rows)
                groupReading.announced = announced
                let plan = try WritePlanner.plan(
                    write, policy: queued.policy, reading: groupReading, announcer: announcer, folding: folding,
                    now: queued.now)
                for item in plan.announcements { announced[item.user]?.state = item.announcement.announced }
                announcements += plan.announcements
                guard plan.newOwners.isEmpty, plan.movedOwners.isEmpty, plan.appliedLate.isEmpty, plan.saves.count <= 1
                else { throw GroupConflict() }
                if let mark = plan.notification {
                    marks.append((id, mark.status, try mark.parked.map(evidenceEncoder.encode) ?? ""))
                }
                for save in plan.saves {
                    if rows[save.user] == nil { throw GroupConflict() }
                    if !saves.contains(where: { $0.user == save.user }) { saves.append((save.user, save.bundleID)) }
                    rows[save.user] = try encoded(save)
                    history += try historyRows(save)
                    var change = rollupChanges[save.user] ?? RollupChange(user: save.user, before: save.rowBefore)
                    change.folded.formUnion(save.folded)
                    rollupChanges[save.user] = change
                }
                events += plan.events.map { ($0, evidenceID) }
                results.append((plan.outcome, plan.changed))
            }
            var rollups = try await prepareRollups(
                tx, stored: claimed.counted,
                saves.compactMap { save in
                    rollupChanges[save.user].map { change in
                        var counted = change
                        counted.after = rows[save.user]?.evidence
                        return counted
                    }
                })
            // The rollups are counted while the rows are being saved: the count reads nothing, and the group's
            // transaction is shorter by the shorter of the two.
            async let saved: Void = saveAll(
                tx, saves.compactMap { save in rows[save.user].map { (save.user, save.bundleID, $0) } }, events: events,
                parked: marks, history: history, now: writes[0].now)
            rollups?.count()
            try await saved
            try await finishRollups(tx, rollups)
            try await Self.writeAnnouncements(tx, announcements, now: writes[0].now)
            return results
        }
    }

    /// One write's ``WriteReading`` inside a group: the rows the group claimed, as the writes before it left them.
    /// Throws ``GroupConflict`` for what the group does not read: a subscription nobody owns beside owned ones (the
    /// parked notifications), or an owner whose row the claim did not lock.
    func reading(
        _ write: EvidenceWrite, owners: [String: String], claimed: GroupClaim, rows: inout [String: StoredEvidence]
    ) throws -> WriteReading {
        let originals = write.originalTransactionIDs
        let user = originals.lazy.compactMap { owners[$0] }.first
        guard user == nil || originals.allSatisfy({ owners[$0] != nil }) else { throw GroupConflict() }
        var stored: [String: StoredEvidence] = [:]
        for owner in Set(originals.compactMap { owners[$0] }) {
            if rows[owner] == nil {
                guard let json = claimed.rows[owner] else { throw GroupConflict() }
                rows[owner] = StoredEvidence(json: json, evidence: try evidenceCache.evidence(json, for: owner))
            }
            stored[owner] = rows[owner]
        }
        return WriteReading(owners: owners, user: user, stored: stored, parked: [])
    }

    /// What ``claimAll(_:_:originals:users:)`` read.
    struct GroupClaim {
        /// The raw evidence row of each notification id this group claimed (duplicates are absent).
        var evidenceIDs: [String: Int64] = [:]
        /// Who owns the subscriptions, read under their locks.
        var owners: [String: String] = [:]
        /// The subscribers' stored evidence, their rows locked.
        var rows: [String: String] = [:]
        /// The subscribers' rows in `metric_customers`, read when rollups are kept (absent: not counted yet).
        var counted: [String: RollupCustomer] = [:]
    }

    /// One statement: stores the raw evidence of every notification whose id is free, claims those ids (the
    /// first of two deliveries in one group wins), and reads the owners and the locked subscriber rows — and, with
    /// rollups kept, the subscribers' `metric_customers` rows. Those are written only under the subscriber's
    /// advisory lock, which the statement before this one took, so this statement's snapshot already holds the
    /// last writer's rows (a plain read beside the `FOR UPDATE` alone would not: its snapshot predates the wait).
    func claimAll(_ tx: any SQLTransaction, _ writes: [QueuedWrite], originals: [String], users: [String]) async throws
        -> GroupClaim
    {
        let received = Self.timestamp(writes[0].now)
        let digests = writes.map(\.write.digest)
        let stored = writes.map { StoredRaw($0.write.rawBody) }
        let parts = stored.reduce(into: [String: String]()) { all, raw in all.merge(raw.parts) { first, _ in first } }
        let partDigests = parts.keys.sorted()
        let rows = try await tx.query(
            """
            WITH parts AS (
                INSERT INTO evidence_parts (digest, body) SELECT * FROM unnest(?, ?) ON CONFLICT (digest) DO NOTHING),
            input AS (
                SELECT * FROM unnest(?, ?, ?, ?, ?, ?)
                    WITH ORDINALITY AS i(digest, bundle_id, kind, notification_id, type, originals, position)),
            fresh AS (
                SELECT DISTINCT ON (input.notification_id) input.* FROM input
                LEFT JOIN LATERAL (SELECT 1 AS taken FROM notifications n WHERE n.notification_id = input.notification_id LIMIT 1) AS t
                    ON true
                WHERE t.taken IS NULL
                ORDER BY input.notification_id, input.position),
            inserted AS (
                INSERT INTO evidence (digest, bundle_id, kind, received_at, body, form)
                SELECT digest, bundle_id, kind, ?, (?)[position], NULLIF((?)[position], '')
                FROM (SELECT DISTINCT ON (digest) digest, bundle_id, kind, position FROM fresh ORDER BY digest, position) AS first
                ON CONFLICT (digest) DO NOTHING RETURNING id, digest),
            ids AS (
                SELECT digest, id FROM inserted
                UNION ALL SELECT d.digest, stored.id FROM unnest(?) AS d(digest)
                    CROSS JOIN LATERAL (SELECT id FROM evidence WHERE evidence.digest = d.digest LIMIT 1) AS stored),
            claimed AS (
                INSERT INTO notifications (notification_id, bundle_id, type, status, received_at, evidence_id, original_transaction_ids)
                SELECT notification_id, bundle_id, type, 'applied', ?, (SELECT id FROM ids WHERE ids.digest = fresh.digest LIMIT 1), originals
                FROM fresh
                ON CONFLICT (notification_id) DO NOTHING RETURNING notification_id, evidence_id),
            locked AS (
                SELECT row.app_user_id, row.evidence_json FROM unnest(?) AS u(id)
                    CROSS JOIN LATERAL (SELECT app_user_id, evidence_json FROM subscribers WHERE app_user_id = u.id LIMIT 1 FOR UPDATE) AS row)
            SELECT 'claimed' AS what, notification_id AS name, evidence_id::text AS value FROM claimed
            UNION ALL SELECT 'owner', id, app_user_id FROM (\(Self.ownedSQL)) AS owned
            UNION ALL SELECT 'row', app_user_id, evidence_json FROM locked
            \(rollupRules == nil ? "" : Self.countedSQL)
            """,
            [
                .texts(partDigests), .texts(partDigests.map { parts[$0] ?? "" }),
                .texts(digests), .texts(writes.map(\.write.bundleID)), .texts(writes.map(\.write.kind)),
                .texts(writes.map { $0.write.notificationID ?? "" }), .texts(writes.map(\.write.eventType)),
                .texts(writes.map { $0.write.originalTransactionIDs.joined(separator: ",") }), .text(received),
                .texts(stored.map(\.body)), .texts(stored.map { $0.form ?? "" }), .texts(digests), .text(received),
                .texts(users), .texts(originals),
            ] + (rollupRules == nil ? [] : [.texts(users)]))
        var claim = GroupClaim()
        for row in rows {
            guard let name = row["name"]?.string, let value = row["value"]?.string else { continue }
            switch row["what"]?.string {
            case "claimed": claim.evidenceIDs[name] = Int64(value) ?? 0
            case "owner": claim.owners[name] = value
            case "counted": claim.counted[name] = try Self.countedCustomer(value, of: name)
            default: claim.rows[name] = value
            }
        }
        return claim
    }

    /// The claim's part that reads the subscribers' `metric_customers` rows (``countedColumn``).
    static let countedSQL = """
        UNION ALL SELECT 'counted', app_user_id, \(countedColumn) FROM metric_customers
            WHERE app_user_id = ANY(?)
        """

    /// One statement: every changed subscriber row, every event (in order) and every parked notification.
    func saveAll(
        _ tx: any SQLTransaction, _ saves: [(user: String, bundleID: String, row: StoredEvidence)],
        events: [(PlannedEvent, Int64)], parked: [(id: String, status: String, pending: String)],
        history: [HistoryRow] = [], now: Date
    ) async throws {
        let jsons = saves.map(\.row.json)
        let time = Self.timestamp(now)
        // Parked notifications are rare: without any, the statement leaves out their update (whose join the
        // planner, not knowing the array is empty, may plan as a scan of every notification).
        let parkedUpdate =
            parked.isEmpty
            ? ""
            : """
            parked AS (
                UPDATE notifications SET status = p.status, pending_json = NULLIF(p.pending, '')
                FROM unnest(?, ?, ?) AS p(id, status, pending) WHERE notification_id = p.id RETURNING 1),
            """
        let parkedBinds: [SQLValue] =
            parked.isEmpty
            ? [] : [.texts(parked.map(\.id)), .texts(parked.map(\.status)), .texts(parked.map(\.pending))]
        // Superseded observations folded out of the rows (most renewals fold the period before).
        let historyInsert = history.isEmpty ? "" : "history AS (\(Self.historyInsertFromArrays) RETURNING 1),"
        let historyBinds = history.isEmpty ? [] : Self.historyBinds(history)
        try await tx.query(
            """
            WITH saved AS (
                INSERT INTO subscribers (app_user_id, bundle_id, evidence_json, created_at, updated_at)
                SELECT u, b, j, ?, ? FROM unnest(?, ?, ?) AS s(u, b, j)
                ON CONFLICT (app_user_id) DO UPDATE SET evidence_json = excluded.evidence_json, updated_at = excluded.updated_at
                RETURNING 1),
            \(parkedUpdate)
            \(historyInsert)
            done AS (SELECT 1)
            INSERT INTO events (app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json)
            SELECT u, ?, t, c, ci, ei, d FROM unnest(?, ?, ?, ?, ?, ?) WITH ORDINALITY AS e(u, t, c, ci, ei, d, position)
            ORDER BY position
            """,
            [.text(time), .text(time), .texts(saves.map(\.user)), .texts(saves.map(\.bundleID)), .texts(jsons)]
                + parkedBinds + historyBinds
                + [
                    .text(time), .texts(events.map(\.0.appUserID)), .texts(events.map(\.0.type)),
                    .texts(events.map(\.0.cause.rawValue)),
                    .texts(events.map { $0.0.causeID ?? "" }), .integers(events.map(\.1)),
                    .texts(events.map { EventDetailWriter.json($0.0.detail) }),
                ])
        for save in saves { evidenceCache.remember(save.row.json, save.row.evidence, for: save.user) }
    }
}
