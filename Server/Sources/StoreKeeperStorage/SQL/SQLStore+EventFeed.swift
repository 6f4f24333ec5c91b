extension SQLStore {
    /// A page of a project's event feed in (writing transaction, id) order, behind the oldest transaction still
    /// running in the database (``SQLDialect/feedHorizonQuery``): an event whose write has not committed is never
    /// passed, so a reader that resumes from the returned cursor sees every event exactly once.
    public func eventFeed(in project: ProjectScope, after cursor: EventFeedCursor?, limit: Int) async throws -> (
        events: [EventRecord], next: EventFeedCursor?
    ) {
        let dialect = database.dialect
        let start = cursor ?? EventFeedCursor(transaction: 0, id: -1)
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        let (horizon, horizonBinds) = try await feedHorizon()
        let binds = keys.binds + [dialect.writingTransaction(start.transaction), .integer(start.id)] + horizonBinds
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

    /// Where a feed read ends now: the project's last event below the horizon, as a cursor (`nil`: none yet). A
    /// reader that starts there sees every event committed later.
    public func eventFeedEnd(in project: ProjectScope) async throws -> EventFeedCursor? {
        try await lastEvent(in: project, horizon: try await feedHorizon())
    }

    /// The project's last event committed now, the horizon aside.
    public func eventFeedLatest(in project: ProjectScope) async throws -> EventFeedCursor? {
        try await lastEvent(in: project, horizon: ("", []))
    }

    /// The project's last event in feed order below `horizon` (``feedHorizon()``, or none), as a cursor.
    func lastEvent(in project: ProjectScope, horizon: (sql: String, binds: [SQLValue])) async throws
        -> EventFeedCursor?
    {
        let keys = ProjectKeyFilter(column: "app_user_id", project: project)
        let row = try await database.read(
            "SELECT id, CAST(tx AS TEXT) AS tx_text FROM events WHERE \(keys.sql)\(horizon.sql) ORDER BY tx DESC, id DESC LIMIT 1",
            keys.binds + horizon.binds
        ).first
        guard let row, let id = row["id"]?.int else { return nil }
        return EventFeedCursor(transaction: UInt64(row["tx_text"]?.string ?? "") ?? 0, id: id)
    }

    /// The feed's horizon as a condition (` AND tx < ?`) with its bind (past every event where one writer commits
    /// at a time). Its own statement, before the read (whatever the server's default isolation): every writer below the
    /// horizon had finished by then, so the read's later snapshot holds its events.
    func feedHorizon() async throws -> (sql: String, binds: [SQLValue]) {
        let dialect = database.dialect
        let found = try await database.read(dialect.feedHorizonQuery, []).first?["horizon"]?.string ?? "0"
        return (" AND tx < \(dialect.writingTransactionParameter)", [dialect.writingTransaction(UInt64(found) ?? 0)])
    }
}
