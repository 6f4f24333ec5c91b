import Foundation
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

/// `storekeeper-lab metrics-bench` stores a synthetic history once and times every metric and dashboard page over it
/// (the speed check runs it in release mode with 100,000 subscribers; here it only has to work, and count).
@Suite struct MetricsBenchCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "stores the history once, answers every metric and page, and counts what it stored, on SQLite and PostgreSQL",
        arguments: TestDatabases.backends)
    func timesEveryQuery(_ backend: String) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var arguments = [
            "metrics-bench", "--subscribers", "300", "--data", data.path, "--json", "--target-milliseconds", "1e9",
        ]
        if backend == "postgres" {
            guard let url = try await TestDatabases.freshPostgresDatabase() else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                return
            }
            arguments += ["--database-url", url]
        }
        let first = try await CommandRunner.run(arguments, program: CommandRunner.lab)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("storing: 300/300 subscribers (100 %)"))
        let report = try Self.object(first.standardOutput)
        let timings = try #require(report["timings"] as? [[String: Any]])
        // Every metric the API offers (the document's `MetricName`, the enum's cases) and the five dashboard pages.
        let offered = MetricName.allCases.count
        let metrics = timings.filter { ($0["name"] as? String)?.hasPrefix("GET /v1/metrics/") == true }
        #expect(metrics.count == offered && timings.count - metrics.count == 5, "\(timings.count) timings")
        #expect(report["met"] as? Bool == true)
        // On PostgreSQL each first answer is the median of three fresh servers' (one cold read does not decide it).
        for timing in timings {
            let firsts = timing["firsts_ms"] as? [Double] ?? []
            #expect(firsts.count == (backend == "postgres" ? 3 : 1), "\(timing)")
            #expect(timing["first_ms"] as? Double == firsts.sorted().dropFirst(firsts.count / 2).first, "\(timing)")
        }
        func totals(_ name: String) -> [String: Double] {
            timings.first { $0["name"] as? String == "GET /v1/metrics/\(name)" }?["totals"] as? [String: Double] ?? [:]
        }
        // Every customer subscribed within the year asked for (but those in its first hours); many still pay.
        let new = totals("new_subscriptions")["all"] ?? 0
        #expect(new > 290 && new <= 300, "\(new)")
        #expect((totals("active_subscriptions")["all"] ?? 0) > 0)
        #expect((totals("refunds")["count"] ?? 0) > 0, "\(totals("refunds"))")
        #expect(totals("mrr").keys.contains("EUR") && totals("mrr").keys.contains("USD"))

        let again = try await CommandRunner.run(arguments, program: CommandRunner.lab)
        #expect(again.status == 0)
        #expect(again.standardError.contains("300 subscribers already stored"))
        let missed = try await CommandRunner.run(
            arguments + ["--target-milliseconds", "0.000001"], program: CommandRunner.lab)
        #expect(missed.status == 1, "a target no answer meets fails")
    }
}
