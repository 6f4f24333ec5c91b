import Foundation
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// PostgreSQL stopped in the middle of a burst of notifications and started again: the server answers 503
/// `database_unavailable` meanwhile (never a 500, never a wait without end), says so once in its log, and every
/// notification Apple resends is applied exactly once.
extension DurabilityTests {
    /// What a burst's senders saw.
    final class Seen: Sendable {
        let statuses = Mutex<[Int: Int]>([:])
        let bodies = Mutex<[String]>([])
    }

    @Test(
        "PostgreSQL stopped and started in the middle of a burst: 503 database_unavailable meanwhile, then every notification applied once"
    )
    func databaseOutageDuringIngestion() async throws {
        guard let postgres = try await ThrowawayPostgres.start() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL's binaries are required but not installed") }
            return
        }
        defer { postgres.destroy() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"dataDirectory": "\#(directory.path)/data", "limits": {"databaseTimeoutSeconds": 2}}"#.utf8)
            .write(to: config)
        let log = directory.appendingPathComponent("stderr.log")
        let server = try await BackgroundCommand(
            ["serve", "--port", "0", "--config", config.path], environment: ["DATABASE_URL": postgres.url],
            standardError: log)
        defer { server.stop() }
        let (tokens, notifications) = try await Self.subscribers(
            at: server.baseURL, pki: directory.appendingPathComponent("data/simulator/pki"), customers: 12)

        // Six senders (the shared HTTP client keeps eight connections to a host: one stays free for /ready) post
        // the burst, each notification again until it is acknowledged, as Apple does. Once a third is in, the
        // database is stopped at once, with requests in flight; it is started again once /ready says 503 (or 20 s
        // later).
        let acknowledged = Acknowledged()
        let seen = Seen()
        let base = server.baseURL
        let giveUp = Date().addingTimeInterval(240)
        let burst = Task {
            await withTaskGroup(of: Void.self) { group in
                for stream in 0..<6 {
                    group.addTask {
                        for (index, token) in notifications.enumerated() where index % 6 == stream {
                            while Date() < giveUp {
                                let status: Int
                                let body: String
                                do {
                                    (status, body) = try await Self.post(
                                        base, "/v1/notifications/appstore", ["signedPayload": token])
                                } catch { (status, body) = (0, "no answer: \(error)") }
                                seen.statuses.withLock { $0[status, default: 0] += 1 }
                                if status == 200 {
                                    _ = acknowledged.ids.withLock { $0.insert(Self.uuid(token) ?? token) }
                                    break
                                }
                                seen.bodies.withLock { if $0.count < 20 { $0.append(body) } }
                                try? await Task.sleep(for: .milliseconds(200))
                            }
                        }
                    }
                }
            }
        }
        while acknowledged.ids.withLock({ $0.count }) < notifications.count / 3, Date() < giveUp {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await postgres.stopImmediately()
        var readyAnswered503 = false
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !readyAnswered503 {
            readyAnswered503 = (try? await ServeClient(base: base).call(.GET, "/ready", key: nil))?.0 == 503
            try? await Task.sleep(for: .milliseconds(250))
        }
        try await Task.sleep(for: .seconds(2))
        try await postgres.start()
        await burst.value

        #expect(readyAnswered503, "/ready did not say 503 within 20 s of the database stopping")
        let statuses = seen.statuses.withLock { $0 }
        #expect((statuses[503] ?? 0) > 0, "no request met the outage: \(statuses)")
        let bodies = seen.bodies.withLock { $0 }
        #expect(Set(statuses.keys).isSubset(of: [200, 503]), "answers during the outage: \(statuses) \(bodies)")
        #expect(bodies.allSatisfy { $0.contains("database_unavailable") && $0.contains("retry_after") }, "\(bodies)")
        #expect(acknowledged.ids.withLock { $0.count } == notifications.count)

        // Applied exactly once: one event per notification, in its subscriber's history.
        var applied: [String: Int] = [:]
        for user in tokens.keys {
            let (_, text) = try await ServeClient(base: base).call(
                .GET, "/v1/subscribers/\(user)/events", key: Self.secretKey)
            let body = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            for event in body?["events"] as? [[String: Any]] ?? [] where event["cause"] as? String == "notification" {
                if let id = event["cause_id"] as? String { applied[id, default: 0] += 1 }
            }
        }
        #expect(applied.count == notifications.count && applied.values.allSatisfy { $0 == 1 }, "\(applied.count)")
        // One warning for the outage, not one per attempt, and no request failed unexpectedly.
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(printed.components(separatedBy: "PostgreSQL is unavailable").count - 1 == 1, "\(printed.suffix(2_000))")
        #expect(!printed.contains("unexpected error"), "\(printed.suffix(2_000))")

        // After the outage the server still stops at once when asked: every service ends on the signal.
        let stopping = ContinuousClock.now
        await server.stop()
        let took = ContinuousClock.now - stopping
        let stopped = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(took < .seconds(2), "serve took \(took) to stop after the outage: \(stopped.suffix(3_000))")
    }
}
