import Foundation
import TestSupport
import Testing

/// `storekeeper serve` can be operated: `/health`, `/ready`, and `/metrics` in Prometheus text whose counters move
/// with what the server does.
@Suite struct ServeOperationsTests {
    /// A scrape: each sample line's value by its name and labels (`name{a="b",…}`).
    static func scrape(_ client: ServeClient) async throws -> [String: Double] {
        let (status, text) = try await client.call(.GET, "/metrics", key: nil)
        #expect(status == 200)
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                Issue.record("not a Prometheus sample line: \(line)")
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// The sum of the samples of `name` whose labels include every one of `labels` (`key="value"`).
    static func total(_ samples: [String: Double], _ name: String, _ labels: [String] = []) -> Double {
        samples.filter { key, _ in
            (key == name || key.hasPrefix(name + "{")) && labels.allSatisfy { key.contains($0) }
        }.values.reduce(0, +)
    }

    @Test("ready once listening; requests, notifications, rejections and webhook attempts counted in /metrics")
    func metricsMove() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try #"{"webhookRetrySeconds": [0.1]}"#.write(to: config, atomically: true, encoding: .utf8)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        #expect(try await client.call(.GET, "/health", key: nil).0 == 200)
        let (ready, readiness) = try await client.call(.GET, "/ready", key: nil)
        #expect(ready == 200 && readiness == #"{"status":"ready"}"#)

        let before = try await Self.scrape(client)
        let (added, _) = try await client.call(
            .POST, "/v1/webhooks", key: "sk_demo_storekeeper_secret", body: #"{"url":"http://127.0.0.1:9/closed"}"#)
        #expect(added == 201)
        _ = try await client.subscribe("alice")
        let (rejected, _) = try await client.call(
            .POST, "/v1/notifications/appstore", key: nil, body: #"{"signedPayload":"not.a.token"}"#)
        #expect(rejected == 400 || rejected == 422)
        var after = before
        for _ in 0..<100 {
            after = try await Self.scrape(client)
            let attempts = Self.total(after, "storekeeper_webhook_attempts_total")
            let notifications =
                Self.total(after, "storekeeper_notifications_total", [#"outcome="applied""#])
                + Self.total(after, "storekeeper_notifications_total", [#"outcome="pending""#])
            if attempts >= 2, notifications >= 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let receipts = [#"http_route="/v1/receipts""#, #"http_response_status_code="200""#]
        #expect(Self.total(after, "hb_requests", receipts) == Self.total(before, "hb_requests", receipts) + 1)
        #expect(Self.total(after, "http_server_request_duration_count", receipts) >= 1)
        #expect(Self.total(after, "storekeeper_notifications_total", [#"outcome="rejected""#]) == 1)
        #expect(
            Self.total(after, "storekeeper_notifications_total", [#"type="SUBSCRIBED/INITIAL_BUY""#]) >= 1,
            "the purchase's notification, counted by type")
        #expect(Self.total(after, "storekeeper_webhook_attempts_total", [#"result="retry""#]) >= 1)
        #expect(Self.total(after, "storekeeper_webhook_attempts_total", [#"result="failed""#]) >= 1)
        #expect(Self.total(before, "storekeeper_webhook_attempts_total") == 0)

        // The caches: answers remembered and found again, within their budgets (256 MiB in all by default).
        _ = try await client.call(.GET, "/v1/subscribers/alice")
        _ = try await client.call(.GET, "/v1/subscribers/alice")
        let caches = try await Self.scrape(client)
        #expect(Self.total(caches, "storekeeper_cache_lookups", [#"cache="answers""#, #"result="hit""#]) >= 1)
        #expect(Self.total(caches, "storekeeper_cache_entries", [#"cache="answers""#]) >= 1)
        #expect(Self.total(caches, "storekeeper_cache_bytes", [#"cache="evidence""#]) > 0)
        #expect(Self.total(caches, "storekeeper_cache_budget_bytes") == Double(256 << 20))

        // Metrics are answered from the rollups every write keeps (built at start), once they are whole.
        var answered = caches
        for _ in 0..<100 {
            let (status, _) = try await client.call(
                .GET, "/v1/metrics/revenue?environment=Sandbox", key: "sk_demo_storekeeper_secret")
            #expect(status == 200)
            answered = try await Self.scrape(client)
            if Self.total(answered, "storekeeper_metric_queries_total", [#"source="rollups""#]) >= 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(Self.total(answered, "storekeeper_metric_queries_total", [#"source="rollups""#]) >= 1)
    }

    @Test("with metricsToken set, /metrics answers only its bearer; other routes are unchanged")
    func metricsToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = "sk_metrics_0123456789abcdefghijklmnopqrstuv"
        let config = directory.appendingPathComponent("config.json")
        try #"{"metricsToken": "\#(token)"}"#.writePrivately(to: config)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        for sent in [nil, "wrong", token + "x", String(token.dropLast())] {
            let (status, body) = try await client.call(.GET, "/metrics", key: sent)
            #expect(status == 401 && !body.contains("storekeeper_"), "\(sent ?? "no token"): \(status)")
        }
        let (status, body) = try await client.call(.GET, "/metrics", key: token)
        #expect(status == 200 && body.contains("storekeeper_cache_bytes"))
        #expect(try await client.call(.GET, "/health", key: nil).0 == 200)
    }
}
