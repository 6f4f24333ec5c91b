public import Foundation

/// The outbox's API on SQL: endpoints, the delivery log, leases and attempts (the events and their deliveries
/// are written with the changes that announce them, by ``SQLStore``).
public struct SQLWebhookStore: WebhookStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// Adds an endpoint.
    public func createWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws {
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "INSERT INTO webhook_endpoints (id, project, url, event_types, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .text(endpoint.id), .text(endpoint.projectID), .text(endpoint.url),
                    .text(Self.storedEventTypes(endpoint.eventTypes)), .text(endpoint.secret),
                    .text(SQLStore.timestamp(endpoint.createdAt)),
                ])
        }
    }

    /// Makes the configured endpoints exactly `endpoints` (see ``WebhookStore/configureWebhookEndpoints(_:)``).
    public func configureWebhookEndpoints(_ endpoints: [WebhookEndpointRecord]) async throws {
        let wanted = Set(endpoints.map(\.id))
        _ = try await database.withTransaction { tx in
            let stored = try await tx.query(
                "SELECT id FROM webhook_endpoints WHERE id LIKE 'cfg!_%' ESCAPE '!'", []
            ).compactMap { $0["id"]?.string }
            for id in stored where !wanted.contains(id) {
                try await tx.query("DELETE FROM webhook_endpoints WHERE id = ?", [.text(id)])
                try await tx.query(
                    "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'", [.text(id)])
            }
            for endpoint in endpoints {
                try await tx.query(
                    "INSERT INTO webhook_endpoints (id, project, url, event_types, secret, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET url = excluded.url, event_types = excluded.event_types, secret = excluded.secret",
                    [
                        .text(endpoint.id), .text(endpoint.projectID), .text(endpoint.url),
                        .text(Self.storedEventTypes(endpoint.eventTypes)), .text(endpoint.secret),
                        .text(SQLStore.timestamp(endpoint.createdAt)),
                    ])
            }
        }
    }

    /// Event types as stored: `,a,b,` (so one `LIKE '%,type,%'` matches), or empty for every type.
    static func storedEventTypes(_ types: [String]) -> String {
        types.isEmpty ? "" : "," + types.joined(separator: ",") + ","
    }

    /// A project's endpoints, oldest first.
    public func webhookEndpoints(projectID: String) async throws -> [WebhookEndpointRecord] {
        try await database.read(
            "SELECT id, project, url, event_types, secret, created_at FROM webhook_endpoints WHERE project = ? ORDER BY created_at, id",
            [.text(projectID)]
        ).map { row in
            WebhookEndpointRecord(
                id: row["id"]?.string ?? "", projectID: row["project"]?.string ?? "", url: row["url"]?.string ?? "",
                eventTypes: (row["event_types"]?.string ?? "").split(separator: ",").map(String.init),
                secret: row["secret"]?.string ?? "", createdAt: SQLStore.date(row["created_at"]))
        }
    }

    /// Removes an endpoint and its pending deliveries.
    public func deleteWebhookEndpoint(id: String, projectID: String) async throws -> Bool {
        try await database.withTransaction { tx in
            let deleted = try await tx.query(
                "DELETE FROM webhook_endpoints WHERE id = ? AND project = ? RETURNING id",
                [.text(id), .text(projectID)])
            guard !deleted.isEmpty else { return false }
            try await tx.query(
                "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'", [.text(id)])
            return true
        }
    }

    /// The delivery log, newest first.
    public func webhookDeliveries(
        projectID: String, endpointID: String?, appUserKey: String?, status: DeliveryStatus?, limit: Int
    ) async throws -> [WebhookDeliveryRecord] {
        var conditions = ["e.project = ?"]
        var binds: [SQLValue] = [.text(projectID)]
        if let endpointID {
            conditions.append("d.endpoint_id = ?")
            binds.append(.text(endpointID))
        }
        if let appUserKey {
            conditions.append("e.app_user_id = ?")
            binds.append(.text(appUserKey))
        }
        if let status {
            conditions.append("d.status = ?")
            binds.append(.text(status.rawValue))
        }
        return try await database.read(
            """
            SELECT d.id, d.event_id, e.type, d.endpoint_id, e.app_user_id, d.status, d.attempts, d.next_attempt_at,
                d.last_attempt_at, d.last_result, d.delivered_at
            FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY d.id DESC LIMIT ?
            """, binds + [.integer(Int64(limit))]
        ).map { row in
            let status = DeliveryStatus(rawValue: row["status"]?.string ?? "") ?? .pending
            return WebhookDeliveryRecord(
                id: row["id"]?.int ?? 0, eventID: row["event_id"]?.string ?? "", eventType: row["type"]?.string ?? "",
                endpointID: row["endpoint_id"]?.string ?? "",
                appUserID: ProjectScope.value(ofKey: row["app_user_id"]?.string ?? ""), status: status,
                attempts: Int(row["attempts"]?.int ?? 0),
                nextAttemptAt: status == .pending ? SQLStore.optionalDate(row["next_attempt_at"]) : nil,
                lastAttemptAt: SQLStore.optionalDate(row["last_attempt_at"]), lastResult: row["last_result"]?.string,
                deliveredAt: SQLStore.optionalDate(row["delivered_at"]))
        }
    }

    /// Makes a delivery pending again.
    public func redeliver(deliveryID: Int64, projectID: String, now: Date) async throws -> Bool {
        try await database.withTransaction { tx in
            try await !tx.query(
                """
                UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_until = NULL, delivered_at = NULL
                WHERE id = ? AND event_id IN (SELECT id FROM webhook_events WHERE project = ?) RETURNING id
                """, [.text(SQLStore.timestamp(now)), .integer(deliveryID), .text(projectID)]
            ).isEmpty
        }
    }

    /// Stores an event for one endpoint.
    public func enqueue(
        _ event: OutboxEvent, endpointID: String, projectID: String, appUserKey: String, now: Date
    ) async throws {
        let time = SQLStore.timestamp(now)
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "INSERT INTO webhook_events (id, project, app_user_id, type, created_at, body) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .text(event.id), .text(projectID), .text(appUserKey), .text(event.type), .text(time),
                    .text(event.body),
                ])
            try await tx.query(
                "INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)",
                [.text(event.id), .text(endpointID), .text(time)])
        }
    }

    /// How many `test` events were made for an endpoint at or after `since`.
    public func testEventCount(endpointID: String, since: Date) async throws -> Int {
        let row = try await database.read(
            """
            SELECT count(*) AS made FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
            WHERE d.endpoint_id = ? AND e.type = 'test' AND e.created_at >= ?
            """, [.text(endpointID), .text(SQLStore.timestamp(since))]
        ).first
        return Int(row?["made"]?.int ?? 0)
    }

    /// How many deliveries are pending.
    public func pendingDeliveryCount() async throws -> Int {
        let row = try await database.read(
            "SELECT count(*) AS pending FROM webhook_deliveries WHERE status = 'pending'", []
        ).first
        return Int(row?["pending"]?.int ?? 0)
    }

    /// Takes due deliveries until `leaseUntil`, at most `perEndpoint` in flight for any one endpoint.
    ///
    /// In one transaction: which due deliveries may be taken (``SQLDialect/dueDeliveries(_:now:limit:perEndpoint:)``), the
    /// lease itself on exactly those ids in ascending order — a row another worker leased meanwhile fails the
    /// `UPDATE`'s own condition and is not taken, and two workers lock rows in the same order — and what the
    /// leased ones carry.
    public func leaseDeliveries(now: Date, leaseUntil: Date, limit: Int, perEndpoint: Int) async throws
        -> [LeasedDelivery]
    {
        let time = SQLStore.timestamp(now)
        return try await database.withTransaction { tx in
            let candidates = try await tx.dialect.dueDeliveries(tx, now: time, limit: limit, perEndpoint: perEndpoint)
            guard !candidates.isEmpty else { return [] }
            let ids = try await tx.query(
                """
                UPDATE webhook_deliveries SET lease_until = ?
                WHERE id IN (\(candidates.map { String($0) }.joined(separator: ", "))) AND status = 'pending'
                    AND (lease_until IS NULL OR lease_until <= ?)
                RETURNING id
                """, [.text(SQLStore.timestamp(leaseUntil)), .text(time)]
            ).compactMap { $0["id"]?.int }
            guard !ids.isEmpty else { return [] }
            return try await tx.query(
                """
                SELECT d.id, d.event_id, d.endpoint_id, d.attempts, e.body, w.url, w.secret FROM webhook_deliveries d
                JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
                WHERE d.id IN (\(ids.map { String($0) }.joined(separator: ", "))) ORDER BY d.id
                """, []
            ).map { row in
                LeasedDelivery(
                    id: row["id"]?.int ?? 0, eventID: row["event_id"]?.string ?? "",
                    endpointID: row["endpoint_id"]?.string ?? "", body: row["body"]?.string ?? "",
                    url: row["url"]?.string ?? "", secret: row["secret"]?.string ?? "",
                    attempts: Int(row["attempts"]?.int ?? 0))
            }
        }
    }

    /// Records attempts and releases their leases: one statement for each distinct outcome and result (a lane's
    /// successful deliveries are one `UPDATE`), all in one transaction; a postponed delivery keeps its attempts
    /// and log and is due again at its instant.
    public func recordAttempts(_ attempts: [DeliveryAttempt], now: Date) async throws {
        guard !attempts.isEmpty else { return }
        let time = SQLStore.timestamp(now)
        var groups: [[SQLValue]: [Int64]] = [:]
        var order: [[SQLValue]] = []
        var postponed: [String: [Int64]] = [:]
        for attempt in attempts {
            let (status, next, delivered): (String, String, SQLValue)
            switch attempt.outcome {
            case .delivered: (status, next, delivered) = ("delivered", time, .text(time))
            case .retry(let at): (status, next, delivered) = ("pending", SQLStore.timestamp(at), .null)
            case .failed: (status, next, delivered) = ("failed", time, .null)
            case .postponed(let until):
                postponed[SQLStore.timestamp(until), default: []].append(attempt.deliveryID)
                continue
            }
            let key: [SQLValue] = [.text(status), .text(next), .text(String(attempt.result.prefix(500))), delivered]
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(attempt.deliveryID)
        }
        let statements = order.map { ($0, groups[$0] ?? []) }
        let releases = postponed.sorted(by: { $0.key < $1.key })
        _ = try await database.withTransaction { tx in
            for (key, ids) in statements {
                try await tx.query(
                    """
                    UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?,
                        lease_until = NULL, last_attempt_at = ?, last_result = ?, delivered_at = ?
                    WHERE status = 'pending' AND id IN (\(ids.map { String($0) }.joined(separator: ", ")))
                    """,
                    [key[0], key[1], .text(time), key[2], key[3]])
            }
            for (until, ids) in releases {
                try await tx.query(
                    """
                    UPDATE webhook_deliveries SET lease_until = NULL, next_attempt_at = ?
                    WHERE status = 'pending' AND id IN (\(ids.map { String($0) }.joined(separator: ", ")))
                    """, [.text(until)])
            }
        }
    }
}
