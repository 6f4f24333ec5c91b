import Foundation
import StoreKeeperAPI
import TestSupport
import Testing

/// `storekeeper simulate`: a population acted out through the App Store simulator and a server — its own
/// in-process pair over a new data folder (whose history ends today), or a running server on the manual clock —
/// so the dashboard and the metrics have a believable history to show.
@Suite struct SimulateCommandTests {
    /// Runs the command (``CommandRunner`` waits for it off the test pool's threads).
    static func simulate(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["simulate"] + arguments)
    }

    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "without --server: a new folder holds the population up to today; serve on it shows its subscribers and metrics"
    )
    func ownPair() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("population").path
        let run = try await Self.simulate([
            "--subscribers", "120", "--months", "2", "--seed", "3", "--data", data, "--json",
        ])
        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
        #expect(run.standardError.contains("simulating: 61/61 days (100 %)"))
        let summary = try Self.object(run.standardOutput)
        #expect(summary["failures"] as? Int == 0)
        let actions = try #require(summary["actions"] as? [String: Int])
        #expect((actions["subscribe"] ?? 0) + (actions["trial"] ?? 0) == 120)
        #expect((actions["cancel"] ?? 0) > 0)
        // The history ends at today's UTC midnight.
        let end = try #require(ISO8601DateFormatter().date(from: summary["end"] as? String ?? ""))
        #expect(Date().timeIntervalSince(end) >= 0 && Date().timeIntervalSince(end) < 86_400)

        let server = try await BackgroundCommand(
            [
                "serve", "--port", "0", "--data", data, "--simulator-rate", "real", "--simulator-environment",
                "Production",
            ], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        let (found, document) = try await client.call(.GET, APIPath.subscriber("sim-3-0"))
        #expect(found == 200 && document.contains(#""subscriptions":[{"#), "\(document)")
        let start = try #require(summary["start"] as? String)
        let query = "from=\(start.prefix(10))&to=\(String(describing: summary["end"] ?? "").prefix(10))&interval=month"
        let (answered, metric) = try await client.call(
            .GET, "/v1/metrics/new_subscriptions?\(query)&format=csv", key: "sk_demo_storekeeper_secret")
        #expect(answered == 200)
        let total = metric.split(separator: "\n").dropFirst().compactMap { Double($0.split(separator: ",").last ?? "") }
            .reduce(0, +)
        #expect(total == 120, "\(metric)")
        await server.stop()

        // Every write kept the rollups the metrics were answered from: they match the evidence exactly.
        let verified = try await CommandRunner.run(["metrics", "verify", "--data", data])
        #expect(verified.status == 0, "\(verified.standardOutput) \(verified.standardError)")
        #expect(verified.standardOutput.contains("rollups match the evidence ("), "\(verified.standardOutput)")
        // A server keeping no rollups writes a customer they miss: verify names it and fails; a rebuild mends it.
        let config = directory.appendingPathComponent("off.json")
        try #"{"metricRollups": false}"#.write(to: config, atomically: true, encoding: .utf8)
        let off = try await BackgroundCommand(
            ["serve", "--port", "0", "--data", data, "--config", config.path], in: directory)
        _ = try await ServeClient(base: off.baseURL).subscribe("late-customer")
        await off.stop()
        let drifted = try await CommandRunner.run(["metrics", "verify", "--data", data])
        #expect(drifted.status == 1)
        #expect(drifted.standardOutput.contains("subscriber late-customer: "), "\(drifted.standardOutput)")
        let rebuilt = try await CommandRunner.run(["metrics", "rebuild", "--data", data])
        #expect(rebuilt.status == 0 && rebuilt.standardOutput.contains("rollups rebuilt from "))
        #expect(try await CommandRunner.run(["metrics", "verify", "--data", data]).status == 0)

        let again = try await Self.simulate(["--subscribers", "10", "--months", "1", "--data", data])
        #expect(again.status == 1)
        #expect(again.standardError.contains("storekeeper.sqlite exists"), "\(again.standardError)")
    }

    @Test(
        "--server drives a running server on the manual clock and moves its clock by the months; any other is refused")
    func runningServer() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manual = try await BackgroundCommand(
            [
                "serve", "--port", "0", "--simulator-clock", "manual", "--simulator-rate", "real",
                "--simulator-environment", "Production",
            ], in: directory)
        defer { manual.stop() }
        let client = ServeClient(base: manual.baseURL)
        let (_, before) = try await client.call(.GET, "/simulator/v1/clock", key: nil)
        let run = try await Self.simulate([
            "--server", manual.baseURL, "--subscribers", "60", "--months", "1", "--seed", "5", "--json",
        ])
        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
        #expect(try Self.object(run.standardOutput)["failures"] as? Int == 0)
        let (_, after) = try await client.call(.GET, "/simulator/v1/clock", key: nil)
        let formatter = ISO8601DateFormatter()
        let moved =
            try #require(formatter.date(from: try Self.object(after)["now"] as? String ?? ""))
            .timeIntervalSince(try #require(formatter.date(from: try Self.object(before)["now"] as? String ?? "")))
        // A month of 30.4375 days is 30 whole simulated days.
        #expect(moved >= 30 * 86_400 && moved < 30 * 86_400 + 600, "moved \(moved) s")
        let (found, _) = try await client.call(.GET, APIPath.subscriber("sim-5-59"))
        #expect(found == 200)

        let sandbox = try await BackgroundCommand(
            [
                "serve", "--port", "0", "--simulator-clock", "manual", "--data",
                directory.appendingPathComponent("b").path,
            ],
            in: directory)
        defer { sandbox.stop() }
        let refused = try await Self.simulate(["--server", sandbox.baseURL, "--subscribers", "5", "--months", "1"])
        #expect(
            refused.status == 1 && refused.standardError.contains("--simulator-rate real"), "\(refused.standardError)")
    }

    @Test("a rate out of range is refused before anything runs, naming the option and value")
    func badParameter() async throws {
        let run = try await Self.simulate(["--monthly-churn", "1.5", "--server", "http://127.0.0.1:9"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("--monthly-churn is 1.5; it must be from 0 to 1"), "\(run.standardError)")
    }
}
