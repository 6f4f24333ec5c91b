import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

/// `storekeeper-lab scale-bench` measures how a server's costs grow with history (scripts/scale-check runs it in release
/// mode with 240 renewals; here it only has to work, and measure something real).
@Suite struct ScaleBenchCommandTests {
    @Test("gives two groups their histories, measures both, and ends with the growth ratios")
    func measuresBothGroups() async throws {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("scale-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await CommandRunner.run(
            [
                "scale-bench", "--database-url", url, "--data", data.path, "--max-renewals", "6", "--subscribers", "2",
                "--rounds", "2", "--json",
            ], program: CommandRunner.lab)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("seeding: 4/4 subscribers (100 %)"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(groups.map { $0["renewals"] as? Int } == [1, 6])
        for group in groups {
            for key in ["get_cpu_ms", "ingest_cpu_ms", "wal_bytes_per_notification"] {
                #expect((group[key] as? Double ?? 0) > 0, "\(key) of \(group)")
            }
            // What stays stored may shrink: a renewal that folds a history leaves a smaller row (a CI run saw
            // -2,048 B in the one-renewal group). The figure is the sum of its tables'.
            let stored = try #require(group["stored_bytes_per_notification"] as? Double, "\(group)")
            let byTable = try #require(group["stored_bytes_per_notification_by_table"] as? [String: Double])
            #expect(abs(byTable.values.reduce(0, +) - stored) < 0.5, "\(group)")
            #expect(byTable.keys.contains("subscribers") && byTable.keys.contains("evidence"))
        }
        let growth = try #require(report["growth"] as? [String: Any])
        #expect((growth["get"] as? Double ?? 0) > 0 && (growth["ingest"] as? Double ?? 0) > 0)
    }

    @Test("a history too short to compare is refused, naming the option and the value")
    func refusesShortHistory() async throws {
        let run = try await CommandRunner.run(
            ["scale-bench", "--max-renewals", "1", "--database-url", "postgres://x@y/z"], program: CommandRunner.lab)
        #expect(run.status != 0)
        #expect(run.standardError.contains("--max-renewals is 1"))
    }
}
