import Foundation
import TestSupport
import Testing

/// `storekeeper serve` says what it does on standard error: a line per app at startup, one per request, one per
/// notification received, one at shutdown — as text or JSON, filtered by level, never with a secret.
@Suite struct ServeLoggingTests {
    /// Runs a demo server with `arguments` in a fresh folder, lets `body` use it, stops it, and returns its
    /// standard error.
    static func log(_ arguments: [String], _ body: (String) async throws -> Void) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = directory.appendingPathComponent("stderr.txt")
        let server = try await BackgroundCommand(
            ["serve", "--port", "0"] + arguments, in: directory, standardError: errors)
        try await body(server.baseURL)
        await server.stop()
        return try String(contentsOf: errors, encoding: .utf8)
    }

    @Test("--log-format json: startup per app, each request, a delivered notification, shutdown; no key ever")
    func json() async throws {
        let log = try await Self.log(["--log-format", "json"]) { base in
            _ = try await ServeRestartTests.call(base, "GET", "/health", key: nil)
            _ = try await ServeRestartTests.call(
                base, "GET", "/v1/subscribers/nobody", key: "sk_demo_storekeeper_secret")
            _ = try await ServeRestartTests.call(base, "GET", "/v1/subscribers/nobody", key: "pk_wrong_key")
            _ = try await ServeRestartTests.subscribe(base, "logged")
            // The simulator delivers the purchase's SUBSCRIBED notification to this server within a second or two.
            let deadline = Date().addingTimeInterval(20)
            var received = false
            while Date() < deadline, !received {
                let (_, events) = try await ServeRestartTests.call(
                    base, "GET", "/v1/subscribers/logged/events", key: "sk_demo_storekeeper_secret")
                received = events.contains("INITIAL_BUY")
                if !received { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(received)
        }
        let lines = try log.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String], "\($0)")
        }
        let app = try #require(lines.first { $0["message"] == "app com.example.storekeeper.demo ready" })
        #expect(app["notification_url"]?.hasSuffix("/v1/notifications/appstore") == true)
        #expect(
            app["apple"]?.contains("simulator") == true && app["level"] == "info" && app["time"]?.hasSuffix("Z") == true
        )
        let requests = lines.filter { $0["message"] == "request" }
        #expect(requests.contains { $0["method"] == "GET" && $0["path"] == "/health" && $0["status"] == "200" })
        #expect(
            requests.contains {
                $0["path"] == "/v1/subscribers/nobody" && $0["status"] == "401" && $0["error"] == "invalid_api_key"
            })
        #expect(requests.allSatisfy { $0["duration_ms"] != nil && $0["hb.request.id"] != nil })
        #expect(Set(requests.compactMap { $0["hb.request.id"] }).count == requests.count)
        // Applied to the subscriber, or parked when it arrived before the receipt was posted.
        let notification = lines.first { $0["message"] == "notification received" }
        #expect(
            notification?["outcome"] == "pending"
                || (notification?["outcome"] == "applied" && notification?["app_user_id"] == "logged"),
            "\(String(describing: notification))")
        #expect(lines.last?["message"] == "StoreKeeper stopped")
        for secret in [
            "sk_demo_storekeeper_secret", "pk_demo_storekeeper_public", "pk_wrong_key", "demo-shared-secret",
        ] {
            #expect(!log.contains(secret), "\(secret)")
        }
    }

    @Test("text by default; --log-level warning keeps the request lines out")
    func levels() async throws {
        let text = try await Self.log([]) { base in
            _ = try await ServeRestartTests.call(base, "GET", "/health", key: nil)
        }
        #expect(text.contains("info") && text.contains("method=GET") && text.contains("StoreKeeper stopped"))
        let quiet = try await Self.log(["--log-level", "warning"]) { base in
            _ = try await ServeRestartTests.call(base, "GET", "/health", key: nil)
        }
        #expect(!quiet.contains("method=GET") && !quiet.contains("StoreKeeper stopped"))
    }

    @Test("a wrong level or format is a usage error naming the value")
    func usage() async throws {
        let level = try await CommandRunner.run(["serve", "--log-level", "loud"])
        #expect(level.status == 2)
        #expect(level.standardError.contains("\"loud\""))
        let format = try await CommandRunner.run(["serve", "--log-format", "xml"])
        #expect(format.status == 2 && format.standardError.contains("\"xml\""))
    }
}
