import Foundation
import StoreKeeperPostgres
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// PostgreSQL group commit: notifications that arrive together share one transaction, and the result is what
/// applying them one at a time gives: each applied once, duplicates leaving no trace, a bad one failing alone.
@Suite struct GroupCommitTests {
    typealias Spec = StoreConformanceTests

    static func count(_ store: SQLStore, _ table: String) async throws -> Int64 {
        try await store.database.read("SELECT count(*) AS n FROM \(table)", []).first?["n"]?.int ?? -1
    }

    @Test("concurrent notifications commit in groups, each applied exactly once")
    func groups() async throws {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired {
                Issue.record("PostgreSQL is required here but no server is configured")
            }
            return
        }
        // One worker, so that notifications arriving while it commits must wait and leave together.
        let store = try await SQLStore.postgres(url: url, groupCommit: GroupCommit(workers: 1, largestGroup: 8))
        for user in 0..<6 {
            _ = try await store.apply(
                Spec.clientWrite("user-\(user)", "t-\(user)", original: "o\(user)"), policy: .transfer, now: Spec.now)
        }
        var writes: [EvidenceWrite] = (0..<36).map { Spec.notification("n-\($0)", "r-\($0)", original: "o\($0 % 6)") }
        for index in 0..<6 {
            // Apple's retry of an earlier delivery, re-signed: same id, different bytes.
            var again = Spec.notification("n-\(index)", "r-\(index)", original: "o\(index % 6)")
            again.rawBody = "resent-n-\(index)"
            writes.append(again)
        }
        writes.append(Spec.notification("n-early-1", "e-1", original: "o-unknown"))
        writes.append(Spec.notification("n-early-2", "e-2", original: "o-unknown"))
        var test = Spec.notification("n-test", "x", original: "x")
        test.originalTransactionIDs = []
        test.evidence = EvidenceSet()
        writes += [test, test]
        var bad = Spec.notification("n-bad", "r-bad", original: "o1")
        bad.rawBody = "PostgreSQL text cannot hold \u{0}"
        writes.append(bad)
        let outcomes = try await withThrowingTaskGroup(of: (String, ApplyOutcome?).self) { group in
            for write in writes.shuffled() {
                group.addTask {
                    let outcome = try? await store.apply(write, policy: .transfer, now: Spec.now)
                    return (write.notificationID ?? "", outcome)
                }
            }
            var outcomes: [(String, ApplyOutcome?)] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { if case .applied = $0.1 { true } else { false } }.count == 36)
        #expect(
            outcomes.filter { $0.1 == .duplicate }.map(\.0).sorted() == [
                "n-0", "n-1", "n-2", "n-3", "n-4", "n-5", "n-test",
            ])
        #expect(outcomes.filter { $0.1 == .pending }.count == 2)
        #expect(outcomes.filter { $0.1 == .recorded }.count == 1)
        #expect(outcomes.filter { $0.1 == nil }.map(\.0) == ["n-bad"])
        for user in 0..<6 {
            let record = try #require(try await store.subscriber("user-\(user)", in: StoreConformanceTests.project))
            let expected = Set(["t-\(user)"] + stride(from: user, to: 36, by: 6).map { "r-\($0)" })
            #expect(Set(record.evidence.transactions.map(\.transactionID)) == expected)
            #expect(try await store.events("user-\(user)", in: StoreConformanceTests.project, limit: 100).count == 7)
        }
        // Duplicates and the failed write stored nothing: 6 client posts + 36 + 2 pending + 1 test.
        #expect(try await Self.count(store, "evidence") == 45)
        #expect(try await Self.count(store, "notifications") == 39)
        let statistics = try #require(store.notificationQueue?.statistics)
        #expect(statistics.largest > 1)
        // Most groups commit together; the one with the bad write falls back to one at a time.
        let tally = store.groupTally.current
        #expect(tally.together > 0, "\(tally)")
        #expect(tally.together + tally.alone <= writes.count)
        try await store.close()
    }

    @Test("with smallestGroup 1 a lone notification commits through the group's transaction")
    func loneGroup() async throws {
        guard let store = try await StoreConformanceTests.store("postgres-group") else { return }
        _ = try await store.apply(Spec.clientWrite("liv", "t1", original: "o1"), policy: .transfer, now: Spec.now)
        #expect(
            try await store.apply(Spec.notification("n-1", "t2", original: "o1"), policy: .transfer, now: Spec.now)
                == .applied(appUserID: "liv"))
        #expect(store.groupTally.current.together == 1 && store.groupTally.current.alone == 0)
        try await store.close()
    }
}
