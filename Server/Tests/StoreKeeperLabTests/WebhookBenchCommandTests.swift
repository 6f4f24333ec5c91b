import Foundation
import TestDatabaseSupport
import TestSupport
import Testing

/// `storekeeper-lab webhook-bench` delivers a backlog to its own receiver and reports the rate (the load check runs it
/// on PostgreSQL in release mode; here it only has to work).
@Suite struct WebhookBenchCommandTests {
    @Test(
        "a backlog is delivered whole, every delivery signed, on SQLite and PostgreSQL",
        arguments: TestDatabases.backends)
    func deliversTheBacklog(_ backend: String) async throws {
        var arguments = ["webhook-bench", "--events", "60"]
        if backend == "postgres" {
            guard let url = try await TestDatabases.freshPostgresDatabase() else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                return
            }
            arguments += ["--database-url", url]
        }
        let result = try await CommandRunner.run(arguments, program: CommandRunner.lab)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("60 events in"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("60 raw deliveries, 0 bad signatures"))
        let impossible = try await CommandRunner.run(
            ["webhook-bench", "--events", "20", "--target", "1000000000"], program: CommandRunner.lab)
        #expect(impossible.status == 1, "a rate under --target fails")
    }
}
