import Foundation
import StoreKeeperStorage
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

/// Rows writes bring back to 0 (a renewal moves where a subscription ends to a later day) are deleted by the sweep,
/// which never changes an answer and never holds up a write: swept while random histories are being written
/// through every executor, the rollups still equal the evidence.
@Suite struct RollupSweepTests {
    typealias Histories = MetricRollupStoreTests

    static func zeroRows(_ store: SQLStore) async throws -> Int {
        Int(
            try await store.database.read("SELECT count(*) AS n FROM metric_rollups WHERE value = 0", []).first?["n"]?
                .int ?? -1)
    }

    /// A store keeping rollups through `executor`; `nil` (recorded when PostgreSQL is required) without one.
    static func store(_ executor: String) async throws -> SQLStore? {
        let store = try await TestDatabases.makeStore(executor, folding: Histories.engine, rollupRules: Histories.rules)
        if store == nil, TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
        return store
    }

    @Test("renewals leave rows at 0; the sweep deletes exactly those, in batches, and every answer stays")
    func sweepsZeros() async throws {
        var random = MetricSnapshotGenerator(state: 8)
        let histories = (0..<8).map { Histories.history($0, random: &random) }
        for backend in TestDatabases.backends {
            guard let store = try await Self.store(backend) else { continue }
            try await Histories.write(histories, into: store)
            let zeros = try await Self.zeroRows(store)
            #expect(zeros > 2, "\(backend): renewals left rows at 0 (\(zeros))")
            let total = try await store.database.read("SELECT count(*) AS n FROM metric_rollups", []).first?["n"]?.int
            let before = try await store.rollups(in: Histories.Spec.project)
            #expect(try await store.sweepRollups(limit: 2) == 2, "\(backend): a batch at a time")
            var swept = 2
            while true {
                let batch = try await store.sweepRollups(limit: 1_000)
                swept += batch
                if batch < 1_000 { break }
            }
            #expect(swept == zeros, "\(backend)")
            #expect(try await Self.zeroRows(store) == 0, "\(backend)")
            let left = try await store.database.read("SELECT count(*) AS n FROM metric_rollups", []).first?["n"]?.int
            #expect(left == total.map { $0 - Int64(zeros) }, "\(backend): only the zeros went")
            #expect(try await store.rollups(in: Histories.Spec.project) == before, "\(backend)")
            #expect(try await store.verifyRollups(in: Histories.Spec.project).difference == nil, "\(backend)")
            try await store.close()
        }
    }

    @Test("sweeping again and again while histories are written: no write fails, rollups equal the evidence")
    func sweepsBesideWrites() async throws {
        var random = MetricSnapshotGenerator(state: 34)
        let histories = (0..<24).map { Histories.history($0, random: &random) }
        for executor in TestDatabases.executors {
            guard let store = try await Self.store(executor) else { continue }
            let sweeper = Task { () -> Result<Int, any Error> in
                var swept = 0
                while !Task.isCancelled {
                    do {
                        swept += try await store.sweepRollups(limit: 5)
                    } catch {
                        return Task.isCancelled ? .success(swept) : .failure(error)
                    }
                    try? await Task.sleep(for: .milliseconds(2))
                }
                return .success(swept)
            }
            try await Histories.write(histories, into: store)
            sweeper.cancel()
            let swept = try await sweeper.value.get()
            let last: Int
            do { last = try await store.sweepRollups(limit: 100_000) } catch {
                Issue.record("\(executor): \(error)")
                try await store.close()
                continue
            }
            #expect(try await Self.zeroRows(store) == 0, "\(executor)")
            let verification = try await store.verifyRollups(in: Histories.Spec.project)
            #expect(verification.difference == nil, "\(executor): \(verification.difference ?? "")")
            #expect(swept + last > 0, "\(executor): rows came back to 0 and were swept")
            try await store.close()
        }
    }
}
