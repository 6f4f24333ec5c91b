public import Foundation

/// Retention Messaging on SQL: ownership answers whose subscription it is; the events table holds the exchanges.
extension SQLStore {
    /// The customer key owning the subscription of `originalTransactionKey` among `bundleIDs`.
    public func owner(originalTransactionKey: String, bundleIDs: [String]) async throws -> String? {
        guard !bundleIDs.isEmpty else { return nil }
        let marks = Array(repeating: "?", count: bundleIDs.count).joined(separator: ", ")
        return try await database.read(
            "SELECT app_user_id FROM ownership WHERE original_transaction_id = ? AND bundle_id IN (\(marks))",
            [.text(originalTransactionKey)] + bundleIDs.map(SQLValue.text)
        ).first?["app_user_id"]?.string
    }

    /// Records the request and the answer as two events in one transaction.
    public func recordRetention(_ exchange: RetentionExchange) async throws {
        try await database.withTransaction { tx in
            try await Self.insertEvent(
                tx, exchange.appUserKey, "retention_request", .notification, exchange.requestID, nil,
                exchange.request, exchange.at)
            try await Self.insertEvent(
                tx, exchange.appUserKey, "retention_response", .notification, exchange.requestID, nil,
                exchange.response, exchange.at)
            guard let event = exchange.announcement else { return }
            let project = ProjectScope.id(ofKey: exchange.appUserKey)
            let time = Self.timestamp(exchange.at)
            let stored = try await tx.query(
                "INSERT INTO webhook_events (id, project, app_user_id, type, created_at, body) SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE project = ?) RETURNING id",
                [
                    .text(event.id), .text(project), .text(exchange.appUserKey), .text(event.type), .text(time),
                    .text(event.body), .text(project),
                ])
            guard !stored.isEmpty else { return }
            try await tx.query(
                "INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at) SELECT ?, id, 'pending', 0, ? FROM webhook_endpoints WHERE project = ? AND (event_types = '' OR event_types LIKE ?)",
                [.text(event.id), .text(time), .text(project), .text("%,\(event.type),%")])
        }
    }

    /// When any of `appUserKeys` was last answered a promotional offer.
    public func lastRetentionOffer(appUserKeys: [String]) async throws -> Date? {
        guard !appUserKeys.isEmpty else { return nil }
        let marks = Array(repeating: "?", count: appUserKeys.count).joined(separator: ", ")
        let rows = try await database.read(
            "SELECT created_at, detail_json FROM events WHERE app_user_id IN (\(marks)) AND type = 'retention_response' ORDER BY id DESC LIMIT 200",
            appUserKeys.map(SQLValue.text))
        for row in rows {
            let detail = row["detail_json"]?.string.flatMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            if detail?["kind"] as? String == "promotional_offer" { return Self.date(row["created_at"]) }
        }
        return nil
    }
}
