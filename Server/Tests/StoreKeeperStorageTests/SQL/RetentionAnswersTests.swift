import Foundation
import StoreKeeperStorage
import SubscriptionMetrics
import TestDatabaseSupport
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
            try await store.retention.recordRetention(
                [Self.exchange("p1", "b", minute: 20, kind: "default", rule: nil)], forgetBefore: Self.start)
            // Several at once share one transaction (multi-row statements).
            try await store.retention.recordRetention(
                [
                    Self.exchange("p1", "a", minute: 10, kind: "message", rule: "hello"),
                    Self.exchange("p2", "c", minute: 15, kind: "message", rule: "other"),
                    Self.exchange("p1", "d", minute: 90, kind: "message", rule: "hello"),
                ], forgetBefore: Self.start)
            // More exchanges than one statement's chunk.
            let many = (0..<450).map { Self.exchange("p3", "m\($0)", minute: 5, kind: "message", rule: "bulk") }
            try await store.retention.recordRetention(many, forgetBefore: Self.start)
            let bulk = try await store.retention.retentionAnswers(
                project: "p3", from: Self.start, to: Self.start.addingTimeInterval(3_600))
            #expect(bulk.count == 450, "\(backend)")
            let events = try await store.database.read(
                "SELECT count(*) AS n FROM events WHERE app_user_id LIKE 'p3:%'", [])
            #expect(events.first?["n"]?.int == 900, "two events per exchange")
            let answers = try await store.retention.retentionAnswers(
                project: "p1", from: Self.start, to: Self.start.addingTimeInterval(3_600))
            #expect(answers.map(\.originalTransactionID) == ["otx-a", "otx-b"], "\(backend)")
            #expect(answers.map(\.rule) == ["hello", nil] && answers.map(\.kind) == ["message", "default"])
            #expect(answers.first?.at == Self.start.addingTimeInterval(600) && answers.first?.environment == "Sandbox")
            try await store.close()
        }
    }

    @Test("a request id is admitted once across batches (and within one); forgotten once older than forgetBefore")
    func replays() async throws {
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL is required here but none is configured") }
                continue
            }
            var first = Self.exchange("p1", "a", minute: 10, kind: "message", rule: "hello")
            first.requestID = "request-1"
            let other = Self.exchange("p1", "b", minute: 10, kind: "message", rule: "hello")
            #expect(
                try await store.retention.recordRetention([first, other, first], forgetBefore: Self.start) == [2],
                "\(backend)")
            // Another replica's batch (one database): the same id is a replay and writes nothing.
            let before = try await store.dump()
            var again = Self.exchange("p1", "c", minute: 11, kind: "message", rule: "hello")
            again.requestID = "request-1"
            #expect(try await store.retention.recordRetention([again], forgetBefore: Self.start) == [0], "\(backend)")
            #expect(try await store.dump() == before, "a replay writes nothing (\(backend))")
            let answers = try await store.retention.retentionAnswers(
                project: "p1", from: Self.start, to: Self.start.addingTimeInterval(3_600))
            #expect(answers.map(\.originalTransactionID).sorted() == ["otx-a", "otx-b"], "\(backend)")
            // Once admitted longer ago than forgetBefore, the id is forgotten (its signedDate would be stale anyway).
            #expect(
                try await store.retention.recordRetention([again], forgetBefore: Self.start.addingTimeInterval(11 * 60))
                    .isEmpty)
            try await store.close()
        }
    }
}
