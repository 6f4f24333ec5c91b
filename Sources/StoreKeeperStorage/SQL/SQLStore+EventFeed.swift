extension SQLStore {
    /// A page of a project's event feed in (writing transaction, id) order, behind the oldest transaction still
    /// running (``SQLDialect/committedHorizon``): an event whose write has not committed is never passed, so a
    /// reader that resumes from the returned cursor sees every event exactly once.
    public func eventFeed(in project: ProjectScope, after cursor: EventFeedCursor?, limit: Int) async throws -> (
        events: [EventRecord], next: EventFeedCursor?
    ) {
        let dialect = database.dialect
        let start = cursor ?? EventFeedCursor(transaction: 0, id: -1)
        let rows = try await database.withReadTransaction { tx in
            try await tx.query(
                """
                SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json,
                    CAST(tx AS TEXT) AS tx_text
                FROM events
                WHERE app_user_id LIKE ? ESCAPE '\\' AND (tx, id) > (\(dialect.writingTransactionParameter), ?)
                    \(dialect.committedHorizon)
                ORDER BY tx, id LIMIT ?
                """,
                [
                    .text(Self.keyPattern(project)), dialect.writingTransaction(start.transaction), .integer(start.id),
                    .integer(Int64(max(1, limit))),
                ])
        }
        let events = try rows.map(Self.eventRecord)
        guard let last = rows.last else { return ([], cursor) }
        let next = EventFeedCursor(
            transaction: UInt64(last["tx_text"]?.string ?? "") ?? start.transaction, id: last["id"]?.int ?? start.id)
        return (events, next)
    }
}
