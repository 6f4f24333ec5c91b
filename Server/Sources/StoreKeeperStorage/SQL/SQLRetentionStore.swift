public import Foundation
public import SubscriptionMetrics

/// Retention Messaging on SQL: each exchange with Apple as two events on its customer and an answer row, its
/// request id admitted once across replicas (whose subscription it is, the evidence store answers).
public struct SQLRetentionStore: RetentionStore {
    /// The database (the store's, audited).
    let database: any SQLDatabase

    /// Records each exchange's request and answer as two events and an answer row, with its announcement, all in
    /// one transaction: many concurrent exchanges share one commit (``RetentionRecorder``). Rows go in multi-row
    /// statements, a chunk of exchanges at a time. Each request id is admitted first, in the same transaction
    /// (``admitRetentionRequests(_:_:forgetBefore:)``); a replay's exchange writes nothing.
    @discardableResult
    public func recordRetention(_ exchanges: [RetentionExchange], forgetBefore: Date) async throws -> Set<Int> {
        guard !exchanges.isEmpty else { return [] }
        return try await database.withTransaction { tx in
            let admitted = try await Self.admitRetentionRequests(tx, exchanges, forgetBefore: forgetBefore)
            let exchanges = admitted.exchanges
            for start in stride(from: 0, to: exchanges.count, by: Self.retentionChunk) {
                let chunk = exchanges[start..<min(exchanges.count, start + Self.retentionChunk)]
                try await SQLStore.insertEvents(
                    tx,
                    chunk.flatMap { exchange -> [SQLStore.EventRow] in
                        [
                            (
                                exchange.appUserKey, "retention_request", .notification, exchange.requestID, nil,
                                exchange.request, exchange.at
                            ),
                            (
                                exchange.appUserKey, "retention_response", .notification, exchange.requestID, nil,
                                exchange.response, exchange.at
                            ),
                        ]
                    })
                let answers = chunk.flatMap { exchange -> [SQLValue] in
                    let answer = exchange.answer
                    return [
                        .text(exchange.project), .text(SQLStore.timestamp(answer.at)),
                        .text(answer.originalTransactionID),
                        .text(answer.productID), answer.rule.map(SQLValue.text) ?? .null, .text(answer.kind),
                        .text(answer.environment),
                    ]
                }
                try await tx.query(
                    "INSERT INTO retention_answers (project, answered_at, original_transaction_id, product_id, rule, kind, environment) VALUES "
                        + Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "), answers
                )
            }
            for exchange in exchanges {
                guard let event = exchange.announcement else { continue }
                try await SQLStore.insertOutboxEvent(
                    tx, event, appUserKey: exchange.appUserKey, time: SQLStore.timestamp(exchange.at))
            }
            return admitted.replayed
        }
    }

    /// Admits each exchange's request id once across every replica: forgets ids admitted before `forgetBefore`,
    /// then inserts the batch's ids; an id already stored, or met earlier in the batch, is a replay.
    /// - Returns: The exchanges admitted, in order, and the positions of those refused.
    static func admitRetentionRequests(
        _ tx: any SQLTransaction, _ exchanges: [RetentionExchange], forgetBefore: Date
    ) async throws -> (exchanges: [RetentionExchange], replayed: Set<Int>) {
        try await tx.query(
            "DELETE FROM retention_requests WHERE admitted_at < ?", [.text(SQLStore.timestamp(forgetBefore))])
        var seen = Set<String>()
        let firsts = exchanges.filter { seen.insert($0.requestID).inserted }
        var inserted = Set<String>()
        for start in stride(from: 0, to: firsts.count, by: Self.retentionChunk) {
            let chunk = firsts[start..<min(firsts.count, start + Self.retentionChunk)]
            let rows = try await tx.query(
                "INSERT INTO retention_requests (request_id, admitted_at) VALUES "
                    + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
                    + " ON CONFLICT (request_id) DO NOTHING RETURNING request_id",
                chunk.flatMap { [SQLValue.text($0.requestID), .text(SQLStore.timestamp($0.at))] })
            inserted.formUnion(rows.compactMap { $0["request_id"]?.string })
        }
        var admitted: [RetentionExchange] = []
        var replayed = Set<Int>()
        for (position, exchange) in exchanges.enumerated() {
            if inserted.remove(exchange.requestID) != nil {
                admitted.append(exchange)
            } else {
                replayed.insert(position)
            }
        }
        return (admitted, replayed)
    }

    /// How many exchanges one multi-row statement writes (14 bound values each for events, 7 for answers).
    static let retentionChunk = 200

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
            if detail?["kind"] as? String == "promotional_offer" { return SQLStore.date(row["created_at"]) }
        }
        return nil
    }

    /// The answers of `project` in `[from, to)`, oldest first (read by the project's answer-time index).
    public func retentionAnswers(project: String, from: Date, to: Date) async throws -> [RetentionAnswer] {
        try await database.read(
            "SELECT answered_at, original_transaction_id, product_id, rule, kind, environment FROM retention_answers WHERE project = ? AND answered_at >= ? AND answered_at < ? ORDER BY answered_at, id",
            [.text(project), .text(SQLStore.timestamp(from)), .text(SQLStore.timestamp(to))]
        ).map { row in
            RetentionAnswer(
                at: SQLStore.date(row["answered_at"]),
                originalTransactionID: row["original_transaction_id"]?.string ?? "",
                productID: row["product_id"]?.string ?? "", rule: row["rule"]?.string,
                kind: row["kind"]?.string ?? "default", environment: row["environment"]?.string ?? "Production")
        }
    }
}
