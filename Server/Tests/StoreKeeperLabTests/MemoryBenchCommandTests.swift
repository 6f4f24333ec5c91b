import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

/// `storekeeper-lab memory-bench` reads every subscriber of a stored population through a server it starts
/// (scripts/memory-check runs it in release mode with 100,000; here it only has to work, and measure).
@Suite struct MemoryBenchCommandTests {
    @Test("stores the population once, reads it, and reports the server's memory and cached reads")
    func measures() async throws {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("memory-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = [
            "memory-bench", "--database-url", url, "--data", data.path, "--subscribers", "300", "--hot", "100",
            "--target-megabytes", "100000", "--settle", "0", "--json",
        ]
        let run = try await CommandRunner.run(arguments, program: CommandRunner.lab)
        #expect(run.status == 0 || run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("storing: 300/300 subscribers (100 %)"))
        #expect(
            run.standardError.contains("last 100, again (3/3): 100 reads"), "each cached range is read --repeats times")
        #expect(run.standardError.contains("answers from the cache 100 %"), "the second read of each is cached")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(report["failures"] as? Int == 0)
        #expect((report["resident_max_megabytes"] as? Int ?? 0) > 0)
        #expect((report["uncached_get_cpu_ms"] as? Double ?? 0) > (report["cached_get_cpu_ms_hot"] as? Double ?? 0))
        let again = try await CommandRunner.run(arguments, program: CommandRunner.lab)
        #expect(again.standardError.contains("300 subscribers already stored"))
        let refused = try await CommandRunner.run(arguments + ["--settle", "601"], program: CommandRunner.lab)
        #expect(refused.status != 0 && refused.standardError.contains("--settle is 601"), "\(refused.standardError)")
        let missed = try await CommandRunner.run(arguments + ["--target-megabytes", "1"], program: CommandRunner.lab)
        #expect(missed.status == 1, "a memory target no server meets fails")
    }
}
