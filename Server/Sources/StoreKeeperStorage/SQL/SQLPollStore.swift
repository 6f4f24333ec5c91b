public import Foundation

/// The poll schedule on SQL: when each subscriber is next asked about at Apple (set by every write's
/// announcement), and the lease of the worker asking.
public struct SQLPollStore: PollStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// Takes due polls until `leaseUntil`.
    public func leasePolls(now: Date, leaseUntil: Date, limit: Int) async throws -> [DuePoll] {
        let skipLocked = database.dialect.leaseLock
        let time = SQLStore.timestamp(now)
        return try await database.withTransaction { tx in
            let leased = try await tx.query(
                """
                UPDATE announced SET poll_lease = ? WHERE app_user_id IN (
                    SELECT app_user_id FROM announced
                    WHERE poll_at IS NOT NULL AND poll_at <= ? AND (poll_lease IS NULL OR poll_lease <= ?)
                    ORDER BY poll_at LIMIT ?\(skipLocked))
                RETURNING app_user_id
                """, [.text(SQLStore.timestamp(leaseUntil)), .text(time), .text(time), .integer(Int64(limit))]
            ).compactMap { $0["app_user_id"]?.string }
            guard !leased.isEmpty else { return [] }
            // One statement for the batch's apps (a subscriber merged away has no row: nothing to poll).
            return try await tx.query(
                "SELECT app_user_id, bundle_id FROM subscribers WHERE app_user_id IN (\(leased.map { _ in "?" }.joined(separator: ", "))) ORDER BY app_user_id",
                leased.map(SQLValue.text)
            ).compactMap { row in
                guard let user = row["app_user_id"]?.string, let bundle = row["bundle_id"]?.string else { return nil }
                return DuePoll(appUserKey: user, bundleID: bundle)
            }
        }
    }

    /// The earliest due poll.
    public func oldestDuePoll(now: Date) async throws -> Date? {
        let row = try await database.read(
            "SELECT min(poll_at) AS oldest FROM announced WHERE poll_at IS NOT NULL AND poll_at <= ?",
            [.text(SQLStore.timestamp(now))]
        ).first
        return SQLStore.optionalDate(row?["oldest"])
    }

    /// Releases a poll's lease, setting its next instant when given.
    public func releasePoll(appUserKey: String, nextAt: Date?) async throws {
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "UPDATE announced SET poll_lease = NULL, poll_at = COALESCE(?, poll_at) WHERE app_user_id = ?",
                [nextAt.map { .text(SQLStore.timestamp($0)) } ?? .null, .text(appUserKey)])
        }
    }
}
