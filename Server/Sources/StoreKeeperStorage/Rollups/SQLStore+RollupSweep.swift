/// Rollup rows that hold nothing. A renewal moves the rows that say where a subscription ends from one day to the
/// next, so the old day's rows often come back to 0 (a customer alone in its day, product and storefront); a row at
/// 0 answers exactly as no row, and ``sweepRollups(limit:)`` deletes such rows so they do not pile up with time.
extension SQLStore {
    /// Deletes up to `limit` rollup rows whose value is 0; what the server runs in the background.
    ///
    /// Never waits for a write: on PostgreSQL a row a write holds locked is skipped (`SKIP LOCKED`), so a sweep
    /// takes part in no lock cycle, and a row is deleted only while it still holds 0 under its lock. A write that
    /// adds to a key after the sweep deleted it inserts the row again.
    /// - Returns: How many rows were deleted (`limit` when more may be waiting).
    public func sweepRollups(limit: Int = 1_000) async throws -> Int {
        guard rollupRules != nil else { return 0 }
        let limit = Int64(max(1, limit))
        return try await database.withTransaction { tx in
            try await tx.dialect.deleteSome(from: "metric_rollups", where: "value = 0", limit: limit, tx: tx)
        }
    }
}
