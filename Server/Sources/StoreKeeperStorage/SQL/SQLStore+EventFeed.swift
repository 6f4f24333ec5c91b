extension SQLStore {
    /// A page of a project's event feed in (writing transaction, id) order, behind the oldest transaction still
    /// running in the database (``SQLDialect/feedHorizonQuery``): an event whose write has not committed is never
    /// passed, so a reader that resumes from the returned cursor sees every event exactly once.
    public func eventFeed(in project: ProjectScope, after cursor: EventFeedCursor?, limit: Int) async throws -> (
        events: [EventRecord], next: EventFeedCursor?
    ) {
        let dialect = database.dialect
        let start = cursor ?? EventFeedCursor(transaction: 0, id: -1)
        var horizon = ""
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        var binds: [SQLValue] = keys.binds + [dialect.writingTransaction(start.transaction), .integer(start.id)]
        if let query = dialect.feedHorizonQuery {
            // Its own statement, before the read (whatever the server's default isolation): every writer below the
            // horizon had finished by then, so the read's later snapshot holds its events.
            let found = try await database.read(query, []).first?["horizon"]?.string ?? "0"
            horizon = " AND tx < \(dialect.writingTransactionParameter)"
            binds.append(dialect.writingTransaction(UInt64(found) ?? 0))
        }
        let rows = try await database.withReadTransaction { [horizon, binds] tx in
            return try await tx.query(
                """
                SELECT id, app_user_id, created_at, type, cause, cause_id, evidence_id, detail_json,
                    CAST(tx AS TEXT) AS tx_text
                FROM events
                WHERE \(keys.sql) AND (tx, id) > (\(dialect.writingTransactionParameter), ?)\(horizon)
                ORDER BY tx, id LIMIT ?
                """,
                binds + [.integer(Int64(max(1, limit)))])
        }
        let events = try rows.map(Self.eventRecord)
        guard let last = rows.last else { return ([], cursor) }
        let next = EventFeedCursor(
            transaction: UInt64(last["tx_text"]?.string ?? "") ?? start.transaction, id: last["id"]?.int ?? start.id)
        return (events, next)
    }
}
