import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// Nothing acknowledged is lost: the server is killed (SIGKILL) or stopped (SIGTERM, graceful) while
/// notifications pour in, restarted on the same database, and every notification it had answered 200 is found
/// stored and applied exactly once.
@Suite struct DurabilityTests {
    /// The notifications the server answered 200, from every stream.
    final class Acknowledged: Sendable {
        let ids = Mutex<Set<String>>([])
    }

    static let bundleID = "com.example.storekeeper.demo"
    static let secretKey = "sk_demo_storekeeper_secret"

    /// Signed notifications for `customers` subscribers (their purchases and a year of renewals), signed with the
    /// PKI the server trusts, and each customer's signed transaction.
    static func evidence(pki directory: URL, customers: Int) async throws -> (
        tokens: [String: String], notifications: [String]
    ) {
        let pki = try SimulatorPKI.loadOrCreate(in: directory)
        let clock = ManualClock(start: Date().addingTimeInterval(-3_600 * 24))
        let simulator = AppStoreSimulator(pki: pki, clock: clock)
        try await simulator.createApp(SimulatedApp.demo())
        var tokens: [String: String] = [:]
        for index in 0..<customers {
            let bought = try await simulator.purchase(
                bundleID: bundleID, productID: "premium.monthly", customerID: "c\(index)")
            tokens["c\(index)"] = try await simulator.transactionInfo(
                transactionID: bought.transactionID, bundleID: bundleID
            )
            .signedTransactionInfo
        }
        clock.advance(by: 13 * AppStoreSimulator.Configuration().rate.seconds(for: .month))
        await simulator.advance()
        return (tokens, await simulator.notifications(for: bundleID).map(\.signedPayload))
    }

    /// ``evidence(pki:customers:)`` with each customer's purchase posted to the server at `base`: the
    /// notifications are then about subscriptions it knows.
    static func subscribers(at base: String, pki: URL, customers: Int) async throws -> (
        tokens: [String: String], notifications: [String]
    ) {
        let evidence = try await evidence(pki: pki, customers: customers)
        for (user, token) in evidence.tokens {
            let (status, _) = try await post(
                base, "/v1/transactions", ["app_user_id": user, "signed_transaction": token],
                key: "pk_demo_storekeeper_public")
            #expect(status == 200)
        }
        return evidence
    }

    static func post(_ base: String, _ path: String, _ body: [String: String], key: String? = nil) async throws -> (
        Int, String
    ) {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    /// Each notification's UUID, read from its (already trusted) payload.
    static func uuid(_ token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["notificationUUID"] as? String
    }

    @Test(
        "SIGKILL or SIGTERM during ingestion: every acknowledged notification is stored and applied exactly once",
        arguments: TestDatabases.backends.map { ($0, "SIGKILL") } + [("postgres", "SIGTERM")])
    func killedDuringIngestion(_ backend: String, _ signal: String) async throws {
        var environment: [String: String] = [:]
        if backend == "postgres" {
            guard let url = try await TestDatabases.freshPostgresDatabase() else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                return
            }
            environment["DATABASE_URL"] = url
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"dataDirectory": "\#(directory.path)/data"}"#.utf8).write(to: config)
        let arguments = ["serve", "--port", "0", "--config", config.path]

        var server = try await BackgroundCommand(arguments, environment: environment)
        let (tokens, notifications) = try await Self.subscribers(
            at: server.baseURL, pki: directory.appendingPathComponent("data/simulator/pki"), customers: 12)
        // Notifications in eight concurrent streams; the server is killed once a third have been acknowledged.
        let acknowledged = Acknowledged()
        let base = server.baseURL
        let running = server
        let killAfter = notifications.count / 3
        await withTaskGroup(of: Void.self) { group in
            for stream in 0..<8 {
                group.addTask {
                    for (index, token) in notifications.enumerated() where index % 8 == stream {
                        guard
                            let (status, _) = try? await Self.post(
                                base, "/v1/notifications/appstore", ["signedPayload": token])
                        else { return }
                        if status == 200, let id = Self.uuid(token) {
                            let count = acknowledged.ids.withLock {
                                $0.insert(id); return $0.count
                            }
                            if count == killAfter { signal == "SIGTERM" ? running.terminate() : running.kill() }
                        }
                    }
                }
            }
        }
        if signal == "SIGTERM" { await server.stop() } else { server.kill() }
        let acked = acknowledged.ids.withLock { $0 }
        #expect(
            acked.count >= killAfter && acked.count < notifications.count,
            "killed after \(acked.count) of \(notifications.count)")

        // Restarted on the same database: every acknowledged notification is already there.
        server = try await BackgroundCommand(arguments, environment: environment)
        defer { server.stop() }
        for token in notifications {
            let (status, answer) = try await Self.post(
                server.baseURL, "/v1/notifications/appstore", ["signedPayload": token])
            #expect(status == 200)
            if let id = Self.uuid(token), acked.contains(id) {
                #expect(answer.contains("duplicate"), "\(id) was acknowledged but is not stored")
            }
        }
        // …and applied exactly once: one event per notification, in its subscriber's history.
        var applied: [String: Int] = [:]
        for user in tokens.keys {
            var request = HTTPClientRequest(url: server.baseURL + "/v1/subscribers/\(user)/events")
            request.headers.add(name: "Authorization", value: "Bearer \(Self.secretKey)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body =
                try JSONSerialization.jsonObject(with: Data(buffer: try await response.body.collect(upTo: 8 << 20)))
                as? [String: Any]
            for event in body?["events"] as? [[String: Any]] ?? [] where event["cause"] as? String == "notification" {
                if let id = event["cause_id"] as? String { applied[id, default: 0] += 1 }
            }
        }
        for id in acked { #expect(applied[id] == 1, "\(id) applied \(applied[id] ?? 0) times") }
        #expect(applied.values.allSatisfy { $0 == 1 })
        #expect(applied.count == notifications.count)
    }
}
