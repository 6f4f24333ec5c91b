import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// A store with folding keeps in each subscriber's row only what answers from now on depend on and appends the
/// superseded rest to `evidence_history` once: the answer is the one a store keeping everything gives, the whole
/// evidence can be read back, history follows its subscription on a transfer and its subscriber on an alias merge,
/// and every executor leaves the same rows.
@Suite struct HistoryFoldingTests {
    typealias Spec = StoreConformanceTests
    static let engine = SubscriptionEngine()
    static let day: TimeInterval = 86_400
    /// Period `n` of subscription `original` runs a day from `start + n` days.
    static let start = Spec.now.addingTimeInterval(-40 * day)

    static func period(_ n: Int, original: String = "o1") -> EvidenceSet {
        var transaction = Transaction(
            transactionID: n == 0 ? original : "\(original)-\(n)", originalTransactionID: original,
            productID: "monthly", source: .notificationV2)
        transaction.purchaseDate = start.addingTimeInterval(Double(n) * day)
        transaction.originalPurchaseDate = start
        transaction.expiresAt = start.addingTimeInterval(Double(n + 1) * day)
        transaction.observedAt = transaction.purchaseDate
        var renewal = RenewalState(originalTransactionID: original, source: .notificationV2)
        renewal.productID = "monthly"
        renewal.willAutoRenew = true
        renewal.observedAt = transaction.purchaseDate
        var set = EvidenceSet()
        set.insert(transaction)
        set.insert(renewal)
        return set
    }

    static func renewal(_ n: Int, original: String = "o1") -> EvidenceWrite {
        var write = Spec.notification("n-\(original)-\(n)", "unused", original: original)
        write.rawBody = "signed-\(original)-\(n)"
        write.evidence = period(n, original: original)
        return write
    }

    static func count(_ store: SQLStore, _ table: String) async throws -> Int64 {
        try await store.database.read("SELECT count(*) AS n FROM \(table)", []).first?["n"]?.int ?? -1
    }

    /// A purchase and 40 daily renewals, the last running at `now`.
    static func history(_ store: SQLStore, user: String = "u1", original: String = "o1") async throws {
        var first = Spec.clientWrite(user, original, original: original)
        first.evidence = period(0, original: original)
        _ = try await store.apply(first, policy: .transfer, now: start)
        for n in 1...40 {
            _ = try await store.apply(
                renewal(n, original: original), policy: .transfer, now: start.addingTimeInterval(Double(n) * day + 60))
        }
    }

    @Test("a row keeps a handful of observations, answers as the whole history does, and reads back whole")
    func foldsHistory() async throws {
        var dumps: [String: String] = [:]
        for executor in TestDatabases.executors {
            guard let folding = try await TestDatabases.makeStore(executor, folding: Self.engine),
                let keeping = try await TestDatabases.makeStore(executor)
            else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            try await Self.history(folding)
            try await Self.history(keeping)
            let folded = try #require(try await folding.snapshot("u1", in: Spec.project))
            let kept = try folding.decodeEvidence(folded)
            let all = try keeping.decodeEvidence(try #require(try await keeping.snapshot("u1", in: Spec.project)))
            #expect(all.transactions.count == 41, "\(executor)")
            #expect(kept.transactions.count <= 3 && kept.renewals.count == 1, "\(executor): \(kept.transactions.count)")
            #expect(try await folding.fullEvidence(folded) == all, "\(executor): history + row = everything")
            let page = try await folding.evidencePage(in: Spec.project, after: nil, limit: 10)
            #expect(page.map(\.evidence) == [all], "\(executor): metric pages read the history too")
            let now = Spec.now.addingTimeInterval(3600)
            #expect(Self.engine.evaluate(kept, at: now) == Self.engine.evaluate(all, at: now), "\(executor)")
            #expect(try await Self.count(folding, "evidence_history") == Int64(82 - 4), "\(executor)")
            #expect(try await Self.count(keeping, "evidence_history") == 0)
            // A receipt listing every past period again adds nothing to the history, and folds back to the same row.
            var receipt = Spec.clientWrite("u1", "receipt", original: "o1")
            receipt.evidence = (0...40).reduce(into: EvidenceSet()) { $0.formUnion(Self.period($1)) }
            _ = try await folding.apply(receipt, policy: .transfer, now: now)
            #expect(try await Self.count(folding, "evidence_history") == Int64(82 - 4), "\(executor)")
            let again = try folding.decodeEvidence(try #require(try await folding.snapshot("u1", in: Spec.project)))
            #expect(again == kept, "\(executor)")
            dumps[executor] = try await folding.dump()
            try await folding.close()
            try await keeping.close()
        }
        let distinct = Set(dumps.values)
        #expect(distinct.count <= 1, "every executor leaves the same rows: \(dumps.keys.sorted())")
    }

    @Test("one write that folds hundreds of observations (an imported history) stores every one")
    func largeFold() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await TestDatabases.makeStore(executor, folding: Self.engine) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            var write = Spec.clientWrite("u1", "o1", original: "o1")
            write.evidence = (0...399).reduce(into: EvidenceSet()) { $0.formUnion(Self.period($1)) }
            _ = try await store.apply(write, policy: .transfer, now: Self.start.addingTimeInterval(400 * Self.day))
            #expect(try await Self.count(store, "evidence_history") == Int64(800 - 4), "\(executor)")
            let row = try #require(try await store.snapshot("u1", in: Spec.project))
            #expect(try await store.fullEvidence(row) == write.evidence, "\(executor)")
            try await store.close()
        }
    }

    @Test("history follows its subscription to a new owner, and its subscriber into an alias merge")
    func historyMoves() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await TestDatabases.makeStore(executor, folding: Self.engine) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            try await Self.history(store)
            // Another user restores the same subscription (transfer policy): row and history move.
            var restore = Spec.clientWrite("u2", "o1-40", original: "o1")
            restore.evidence = Self.period(40)
            _ = try await store.apply(restore, policy: .transfer, now: Spec.now)
            let moved = try #require(try await store.snapshot("u2", in: Spec.project))
            #expect(try await store.fullEvidence(moved).transactions.count == 41, "\(executor)")
            if let left = try await store.snapshot("u1", in: Spec.project) {
                #expect(try await store.fullEvidence(left).transactions.isEmpty, "\(executor)")
            }
            // u2 logs in as u3: u3 holds everything.
            try await store.alias("u2", to: "u3", in: Spec.project, bundleID: "com.example", now: Spec.now)
            let merged = try #require(try await store.snapshot("u3", in: Spec.project))
            #expect(try await store.fullEvidence(merged).transactions.count == 41, "\(executor)")
            try await store.close()
        }
    }
}
