public import Foundation
import SubscriptionEngine

/// Identities: aliases and API keys.
extension SQLStore {
    /// Merges `alias` into `appUserID`, both in `project`, if `authority` may merge the customer `alias` resolves
    /// to. Each id is resolved again once both customers are locked: a merge committed meanwhile that moved either
    /// id starts the transaction over (at most three times), so two concurrent merges cannot both pass the rule on
    /// what the ids named before.
    public func alias(
        _ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date,
        authority: MergeAuthority
    ) async throws {
        for attempt in 1...3 {
            do {
                return try await merge(
                    alias, to: appUserID, in: project, bundleID: bundleID, now: now, authority: authority)
            } catch is IdentityMoved where attempt < 3 {
                continue
            }
        }
    }

    /// A merge committed between resolving an id and locking its customer: the transaction starts over.
    struct IdentityMoved: Error {}

    func merge(
        _ alias: String, to appUserID: String, in project: ProjectScope, bundleID: String, now: Date,
        authority: MergeAuthority
    ) async throws {
        let cache = evidenceCache
        let changed = try await database.withTransaction { tx -> [String] in
            let target = try await Self.canonical(tx, project.key(appUserID))
            let source = try await Self.canonical(tx, project.key(alias))
            try await Self.lock(tx, ["user:\(target)", "user:\(source)"])
            // Where writers take locks, a merge may have committed between resolving and locking: resolve again.
            // (Elsewhere one writer commits at a time, and nothing moved.)
            try await tx.dialect.recheckingAfterLocks {
                guard try await Self.canonical(tx, project.key(appUserID)) == target,
                    try await Self.canonical(tx, project.key(alias)) == source
                else { throw IdentityMoved() }
            }
            guard source != target else { return [] }
            let stored = try await Self.loadEvidence(tx, target, cache)
            let merged = try await Self.loadEvidence(tx, source, cache)?.evidence ?? EvidenceSet()
            let isItsOwnCustomer = source == project.key(alias)
            let serverSet =
                authority.readsAttributes
                ? try await !tx.query(
                    "SELECT name FROM subscriber_attributes WHERE app_user_id = ? AND source = 'server' LIMIT 1",
                    [.text(source)]
                ).isEmpty : false
            guard
                authority.permits(
                    merging: alias, isItsOwnCustomer: isItsOwnCustomer, evidence: merged,
                    holdsServerSetAttributes: serverSet)
            else {
                throw MergeRefused(appUserID: alias, isAlias: !isItsOwnCustomer)
            }
            // The merged subscriber was first seen when either of the two was.
            let firstSeen = try await tx.query(
                "SELECT created_at FROM subscribers WHERE app_user_id IN (?, ?)", [.text(target), .text(source)]
            ).map { Self.date($0["created_at"]) }.min()
            let save = EvidenceSave(user: target, bundleID: bundleID, change: .union(stored: stored, added: merged))
            // Both customers' histories become one: rollups count them from their whole histories.
            let rollups = try await prepareRollups(
                tx, [RollupChange(user: target, before: nil, after: save.evidence), RollupChange(user: source)])
            try await saveEvidence(tx, save, now: now)
            if let firstSeen, firstSeen < now {
                try await tx.query(
                    "UPDATE subscribers SET created_at = ? WHERE app_user_id = ?",
                    [.text(Self.timestamp(firstSeen)), .text(target)])
            }
            if authority == .app {
                try await SQLExperimentStore.keepTargetEnrolments(tx, project: project, target: target, source: source)
            }
            try await tx.query("DELETE FROM subscribers WHERE app_user_id = ?", [.text(source)])
            try await tx.query(
                "UPDATE ownership SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query(
                "UPDATE evidence_history SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query(
                "UPDATE aliases SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await tx.query(
                "UPDATE events SET app_user_id = ? WHERE app_user_id = ?", [.text(target), .text(source)])
            try await finishRollups(tx, rollups)
            try await Self.mergeAnnouncements(tx, into: target, from: source)
            try await SQLAttributeStore.mergeAttributes(tx, into: target, from: source)
            try await tx.query(
                "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET app_user_id = excluded.app_user_id",
                [.text(source), .text(target)])
            try await Self.insertEvent(
                tx, target, "alias_added", .identity, nil, nil,
                [
                    "alias": .string(ProjectScope.value(ofKey: source)),
                    "app_user_id": .string(ProjectScope.value(ofKey: target)),
                ], now)
            return [target, source]
        }
        changes.publish(.changed(changed))
    }
}
