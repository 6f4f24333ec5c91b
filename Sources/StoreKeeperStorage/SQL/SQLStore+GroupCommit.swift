public import Foundation

/// PostgreSQL group commit: notifications that arrive together are applied in one transaction, so a busy
/// server pays one BEGIN, one round of locks and one COMMIT (one WAL flush) per group rather than per
/// notification. Each notification is still answered only after the commit that carried it.
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

    /// Thrown inside a group when a write needs a lock the group did not take up front: the group rolls back
    /// and its writes run again one at a time.
    struct GroupConflict: Error {}

    /// Applies `writes` in one transaction, in order; when that fails (a conflict, or one bad write), each on
    /// its own, so one write's failure is its own. Publishes the changes before returning.
    /// - Parameter writes: Notifications (no posted app user id).
    /// - Returns: Each write's outcome and the subscribers it changed, or its error.
    func applyGroup(_ writes: [QueuedWrite]) async -> [Result<(ApplyOutcome, Set<String>), any Error>] {
        if writes.count > 1, let results = try? await applyTogether(writes) {
            changes.publish(.changed(Set(results.flatMap(\.1)).sorted()))
            return results.map { .success($0) }
        }
        var results: [Result<(ApplyOutcome, Set<String>), any Error>] = []
        for queued in writes {
            do {
                let result = try await applyAlone(queued)
                changes.publish(.changed(result.1.sorted()))
                results.append(.success(result))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// One transaction: read who owns every subscription the writes are about, lock the subscriptions, those
    /// subscribers and the notification ids (in ``lockOrder``, so groups and single writers cannot deadlock),
    /// then apply each write as ``apply(_:policy:now:)`` would.
    func applyTogether(_ writes: [QueuedWrite]) async throws -> [(ApplyOutcome, Set<String>)] {
        try await database.withTransaction { tx in
            let originals = Set(writes.flatMap(\.write.originalTransactionIDs)).sorted()
            let users = Set(try await Self.owners(tx, originals).values)
            let notifications = writes.compactMap(\.write.notificationID)
            try await Self.lock(
                tx, originals.map { "otid:\($0)" } + users.map { "user:\($0)" } + notifications.map { "notification:\($0)" })
            var results: [(ApplyOutcome, Set<String>)] = []
            for queued in writes {
                results.append(try await applyInTransaction(tx, queued.write, policy: queued.policy, now: queued.now, lockedUsers: users))
            }
            return results
        }
    }
}
