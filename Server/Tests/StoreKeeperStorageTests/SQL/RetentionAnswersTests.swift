import Foundation
import StoreKeeperStorage
import SubscriptionMetrics
import TestSupport
import Testing

/// Retention answers on every backend: each exchange stores one answer row with its events, read back by project
/// and time range in answer order — what the retention metrics count — and never another project's.
@Suite struct RetentionAnswersTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func exchange(_ project: String, _ user: String, minute: Double, kind: String, rule: String?)
        -> RetentionExchange
    {
        let at = start.addingTimeInterval(minute * 60)
        return RetentionExchange(
            appUserKey: "\(project):\(user)", requestID: UUID().uuidString, request: ["product_id": .string("monthly")],
            response: ["kind": .string(kind)], at: at, project: project,
            answer: RetentionAnswer(
                at: at, originalTransactionID: "otx-\(user)", productID: "monthly", rule: rule, kind: kind,
                environment: "Sandbox"))
    }

    @Test("answers come back by project and time range, oldest first, with their rule and kind")
    func readBack() async throws {
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL is required here but none is configured") }
                continue
            }
            try await store.recordRetention([Self.exchange("p1", "b", minute: 20, kind: "default", rule: nil)])
            // Several at once share one transaction (multi-row statements).
            try await store.recordRetention([
                Self.exchange("p1", "a", minute: 10, kind: "message", rule: "hello"),
                Self.exchange("p2", "c", minute: 15, kind: "message", rule: "other"),
                Self.exchange("p1", "d", minute: 90, kind: "message", rule: "hello"),
            ])
            // More exchanges than one statement's chunk.
            let many = (0..<450).map { Self.exchange("p3", "m\($0)", minute: 5, kind: "message", rule: "bulk") }
            try await store.recordRetention(many)
            let bulk = try await store.retentionAnswers(
                project: "p3", from: Self.start, to: Self.start.addingTimeInterval(3_600))
            #expect(bulk.count == 450, "\(backend)")
            let events = try await store.database.read(
                "SELECT count(*) AS n FROM events WHERE app_user_id LIKE 'p3:%'", [])
            #expect(events.first?["n"]?.int == 900, "two events per exchange")
            let answers = try await store.retentionAnswers(
                project: "p1", from: Self.start, to: Self.start.addingTimeInterval(3_600))
            #expect(answers.map(\.originalTransactionID) == ["otx-a", "otx-b"], "\(backend)")
            #expect(answers.map(\.rule) == ["hello", nil] && answers.map(\.kind) == ["message", "default"])
            #expect(answers.first?.at == Self.start.addingTimeInterval(600) && answers.first?.environment == "Sandbox")
            try await store.close()
        }
    }
}
