import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

/// Every write keeps the rollups in its transaction: after random histories (renewals delivered late, out of
/// order and twice, refunds, upgrades, billing trouble, transfers, alias merges, history folded away) written
/// through every executor, concurrently, the stored rollups are exactly the sum of the subscribers' evidence and
/// answer every rollup metric as the full computation does; `verifyRollups` names a tampered row or contribution,
/// and a rebuild puts it right.
@Suite struct MetricRollupStoreTests {
    typealias Spec = StoreConformanceTests
    static let day: TimeInterval = 86_400
    static let start = Spec.now
    static let engine = SubscriptionEngine()
    static let rules = ProceedsRules(taxRates: ["DEU": 0.19])

    /// One write of a history, at the server's clock `at`.
    enum Step {
        case apply(EvidenceWrite, at: Date)
        case alias(String, to: String, at: Date)
    }

    static func transaction(
        _ id: String, original: String, product: String, from: Date, days: Double, customer: Int
    ) -> Transaction {
        var transaction = Transaction(
            transactionID: id, originalTransactionID: original, productID: product, source: .notificationV2)
        transaction.kind = .autoRenewable
        transaction.subscriptionGroupID = "group"
        transaction.purchaseDate = from
        transaction.originalPurchaseDate = from
        transaction.expiresAt = from.addingTimeInterval(days * day)
        transaction.price = product == "monthly" ? 9_990 : 14_990
        transaction.currency = customer % 3 == 0 ? "EUR" : "USD"
        transaction.storefront = customer % 3 == 0 ? "DEU" : "USA"
        transaction.environment = customer % 7 == 0 ? .sandbox : .production
        transaction.observedAt = from
        return transaction
    }

    static func set(_ transaction: Transaction, renewal: RenewalState? = nil) -> EvidenceSet {
        var set = EvidenceSet()
        set.insert(transaction)
        if let renewal { set.insert(renewal) }
        return set
    }

    /// A customer's history as writes, in the order they are sent.
    static func history(_ customer: Int, random: inout MetricSnapshotGenerator) -> [Step] {
        let user = "u\(customer)"
        let original = "o\(customer)"
        var steps: [Step] = []
        var at = start.addingTimeInterval(Double(random.next(20)) * day + Double(random.next(86_400)))
        var product = "monthly"
        let length = random.next(2) == 0 ? 30.0 : 7.0
        let periods = 2 + random.next(9)
        var notifications = 0
        func notification(_ evidence: EvidenceSet, at when: Date) -> Step {
            notifications += 1
            var write = Spec.notification("n-\(customer)-\(notifications)", "unused", original: original)
            write.rawBody = "signed-\(customer)-\(notifications)"
            write.evidence = evidence
            return .apply(write, at: when)
        }
        var first = Spec.clientWrite(user, original, original: original)
        first.evidence = set(
            transaction(original, original: original, product: product, from: at, days: length, customer: customer))
        var renewals: [Step] = []
        for n in 1..<periods {
            at = at.addingTimeInterval(length * day)
            if random.next(5) == 0 { at = at.addingTimeInterval(Double(1 + random.next(70)) * day) }  // a lapse
            var period = transaction(
                "\(original)-\(n)", original: original, product: product, from: at, days: length, customer: customer)
            if random.next(6) == 0, product == "monthly" {  // an upgrade part-way through the last period
                product = "annual"
                period.productID = product
            }
            var renewal = RenewalState(originalTransactionID: original, source: .notificationV2)
            renewal.productID = product
            renewal.willAutoRenew = random.next(4) != 0
            renewal.isInBillingRetry = random.next(8) == 0
            if random.next(10) == 0 { renewal.gracePeriodExpiresAt = period.expiresAt?.addingTimeInterval(6 * day) }
            renewal.observedAt = at
            renewals.append(notification(set(period, renewal: renewal), at: at.addingTimeInterval(60)))
            if random.next(8) == 0 {  // refunded a few days later, fully or by half
                var refunded = period
                refunded.revokedAt = at.addingTimeInterval(3 * day)
                refunded.revocationPercentage = random.next(2) == 0 ? 100_000 : 50_000
                refunded.observedAt = refunded.revokedAt
                renewals.append(notification(set(refunded), at: at.addingTimeInterval(3 * day + 60)))
            }
        }
        if random.next(4) == 0, renewals.count > 1 { renewals.swapAt(0, 1) }  // out of order
        if random.next(5) == 0, let early = renewals.first {  // a renewal heard before the purchase was posted
            steps.append(early)
            renewals.removeFirst()
        }
        steps.append(.apply(first, at: start.addingTimeInterval(30)))
        steps += renewals
        if random.next(5) == 0, let again = renewals.last { steps.append(again) }  // delivered twice
        if random.next(6) == 0 {  // restored on another account: the subscription moves
            var restore = Spec.clientWrite("moved-\(customer)", "restore-\(customer)", original: original)
            restore.evidence = first.evidence
            steps.append(.apply(restore, at: at.addingTimeInterval(120)))
        } else if random.next(5) == 0 {  // an alias merge
            var other = Spec.clientWrite("alias-\(customer)", "alias-\(customer)", original: "a\(customer)")
            other.evidence = set(
                transaction(
                    "a\(customer)", original: "a\(customer)", product: "monthly", from: start.addingTimeInterval(day),
                    days: 30, customer: customer))
            steps.append(.apply(other, at: start.addingTimeInterval(day + 60)))
            steps.append(.alias("alias-\(customer)", to: user, at: at.addingTimeInterval(180)))
        }
        return steps
    }

    /// Writes customers' histories side by side: the n-th step of every customer at once.
    static func write(_ histories: [[Step]], into store: SQLStore) async throws {
        let rounds = histories.map(\.count).max() ?? 0
        for round in 0..<rounds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for history in histories where round < history.count {
                    group.addTask {
                        switch history[round] {
                        case .apply(let write, let at): _ = try await store.apply(write, policy: .transfer, now: at)
                        case .alias(let alias, let user, let at):
                            try await store.alias(alias, to: user, in: Spec.project, bundleID: "com.example", now: at)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// The full computation over the project's stored evidence, its clock read by the day, and the rollups'
    /// answer.
    static func answers(_ store: SQLStore, _ name: MetricName, now: Date) async throws -> (
        full: [String: [Double]], rolled: [String: [Double]]
    ) {
        var query = MetricQuery(
            name: name, from: start, to: now, interval: .day, environments: ["Production", "Sandbox"], now: now)
        query.proceeds = rules
        query.dayClock = true
        var accumulator = MetricAccumulator(query)
        for (_, evidence) in try await store.evidencePage(in: Spec.project, after: nil, limit: 10_000) {
            accumulator.add(evidence)
        }
        func table(_ series: [MetricSeries]) -> [String: [Double]] {
            Dictionary(uniqueKeysWithValues: series.map { ($0.key, $0.points.map(\.value)) })
                .filter { $0.value.contains { $0 != 0 } }
        }
        let rows = try await store.rollups(in: Spec.project).map { (key: $0.key, value: $0.value) }
        return (table(accumulator.series()), table(MetricRollup.answer(rows, query: query)))
    }

    @Test(
        "random histories through every executor leave rollups equal to the evidence, and answers to the full computation"
    )
    func rollupsFollowEveryWrite() async throws {
        var random = MetricSnapshotGenerator(state: 21)
        let histories = (0..<36).map { Self.history($0, random: &random) }
        let now = Self.start.addingTimeInterval(160.5 * Self.day)
        var rows: [String: [RollupKey: Int64]] = [:]
        for executor in TestDatabases.executors {
            guard
                let store = try await TestDatabases.makeStore(executor, folding: Self.engine, rollupRules: Self.rules)
            else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            try await Self.write(histories, into: store)
            let verification = try await store.verifyRollups(in: Spec.project)
            #expect(verification.difference == nil, "\(executor): \(verification.difference ?? "")")
            #expect(verification.subscribers >= 36, "\(executor)")
            let history = try await store.database.read("SELECT count(*) AS n FROM evidence_history", [])
            #expect((history.first?["n"]?.int ?? 0) > 0, "\(executor): some history was folded away")
            for name in MetricRollup.metrics + [.arr] {
                let (full, rolled) = try await Self.answers(store, name, now: now)
                let same =
                    Set(full.keys) == Set(rolled.keys)
                    && full.allSatisfy { key, values in
                        zip(values, rolled[key] ?? []).allSatisfy { abs($0 - $1) <= 0.001 + 1e-9 }
                    }
                #expect(same, "\(executor) \(name): \(full) ≠ \(rolled)")
            }
            // The rows a server reads (summed by the database over what a query does not split by) answer as
            // the stored rows do, for every split.
            let stored = try await store.rollups(in: Spec.project).map { (key: $0.key, value: $0.value) }
            for name in MetricRollup.metrics + [.arr] {
                for split in [nil, MetricSplit.product, .storefront, .offerType, .environment] {
                    var query = MetricQuery(
                        name: name, from: Self.start, to: now, interval: .week, split: split,
                        environments: ["Production", "Sandbox"], now: now)
                    query.proceeds = Self.rules
                    query.dayClock = true
                    let first = MetricRollup.day(of: query.interval.buckets(from: query.from, to: query.to)[0].start)
                    let summed = try await store.rollupRows(
                        in: Spec.project, metric: MetricRollup.source(of: name).metric, split: split,
                        environments: query.environments, fromDay: first, throughDay: MetricRollup.day(of: now))
                    let (served, whole) = (
                        MetricRollup.answer(summed, query: query), MetricRollup.answer(stored, query: query)
                    )
                    #expect(
                        served.map(\.key) == whole.map(\.key)
                            && zip(served, whole).allSatisfy { left, right in
                                zip(left.points, right.points).allSatisfy { abs($0.value - $1.value) <= 0.001 }
                            },
                        "\(executor) \(name) split \(split.map { "\($0)" } ?? "none")")
                }
            }
            rows[executor] = try await store.rollups(in: Spec.project)
            try await store.close()
        }
        #expect(Set(rows.values).count <= 1, "every executor keeps the same rollups: \(rows.keys.sorted())")
    }

    @Test("verification names a tampered row and a tampered contribution; a rebuild puts both right")
    func verificationFindsDrift() async throws {
        var random = MetricSnapshotGenerator(state: 8)
        let histories = (0..<8).map { Self.history($0, random: &random) }
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend, folding: Self.engine, rollupRules: Self.rules)
            else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            try await Self.write(histories, into: store)
            #expect(try await store.verifyRollups(in: Spec.project).difference == nil, "\(backend)")
            try await store.database.withTransaction { tx in
                try await tx.query(
                    "UPDATE metric_rollups SET value = value + 1000000 WHERE metric = 'revenue' AND col = 0 AND day = (SELECT min(day) FROM metric_rollups WHERE metric = 'revenue' AND col = 0)",
                    [])
            }
            let drifted = try await store.verifyRollups(in: Spec.project).difference ?? ""
            #expect(drifted.hasPrefix("rollups: revenue on "), "\(backend): \(drifted)")
            #expect(drifted.contains("stored "), "\(backend): \(drifted)")
            try await store.rebuildRollups(in: Spec.project)
            #expect(try await store.verifyRollups(in: Spec.project).difference == nil, "\(backend) after rebuild")
            let first =
                try await store.database.read(
                    "SELECT min(app_user_id) AS user FROM metric_customers", []
                ).first?["user"]?.string ?? ""
            try await store.database.withTransaction { tx in
                try await tx.query(
                    "UPDATE metric_customers SET fingerprint = fingerprint + 1 WHERE app_user_id = ?", [.text(first)])
            }
            let contribution = try await store.verifyRollups(in: Spec.project).difference ?? ""
            #expect(
                contribution.hasPrefix("subscriber \(ProjectScope.value(ofKey: first)): "),
                "\(backend): \(contribution)")
            try await store.rebuildRollups(in: Spec.project)
            #expect(try await store.verifyRollups(in: Spec.project).difference == nil, "\(backend) after rebuild")
            try await store.close()
        }
    }

    @Test("a database from before rollups (schema 16) is migrated, then built from its evidence with progress")
    func upgradeBuilds() async throws {
        var random = MetricSnapshotGenerator(state: 13)
        // Evidence only: today's merge also moves each attribute's source (schema 19), which a schema-16 database
        // does not have, and the old database is written by today's code.
        let histories = (0..<10).map { index in
            Self.history(index, random: &random).filter { step in
                if case .alias = step { return false }
                return true
            }
        }
        for backend in TestDatabases.backends {
            let database: any SQLDatabase
            switch backend {
            case "sqlite":
                database = try await SQLiteStoreDatabase.open(
                    path: FileManager.default.temporaryDirectory.appendingPathComponent(
                        "v16-\(UUID().uuidString).sqlite"
                    ).path)
            default:
                guard let url = try await TestDatabases.freshPostgresDatabase() else {
                    if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                    continue
                }
                database = try PostgresStoreDatabase.connect(url: url)
            }
            let before = SQLStore(database: database, groupCommit: .off, folding: Self.engine)
            #expect(try await before.migrate(projects: [:], through: 16) == 16)
            try await Self.write(histories, into: before)
            let after = SQLStore(database: database, groupCommit: .off, folding: Self.engine, rollupRules: Self.rules)
            #expect(try await after.migrate() == SQLStore.schemaVersion)
            #expect(try await !after.rollupsReady(in: Spec.project), "\(backend): not whole before the build")
            var progress: [Int] = []
            let counted = try await after.rebuildRollups(in: Spec.project) { progress.append($0) }
            #expect(counted >= 10 && progress.last == counted, "\(backend): \(progress)")
            #expect(try await after.rollupsReady(in: Spec.project), "\(backend)")
            let verification = try await after.verifyRollups(in: Spec.project)
            #expect(verification.difference == nil && verification.rows > 0, "\(backend): \(verification)")
            try await after.close()
        }
    }

    @Test("a store keeping no rollups writes none, and says so when asked to verify")
    func off() async throws {
        guard let store = try await TestDatabases.makeStore("sqlite") else { return }
        _ = try await store.apply(Spec.clientWrite("u1", "t1", original: "o1"), policy: .transfer, now: Spec.now)
        #expect(try await store.rollups(in: Spec.project).isEmpty)
        await #expect(throws: StorageError.self) { try await store.verifyRollups(in: Spec.project) }
        try await store.close()
    }
}

/// The deterministic generator the metric specs share (the same histories every run).
struct MetricSnapshotGenerator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
