import Foundation
import StoreKeeperAPI
import TestSupport
import Testing

/// Lost notifications are found: with the simulator dropping an app's notifications, `storekeeper serve` reads
/// Apple's notification history and applies what never arrived, once.
@Suite struct ServeReconciliationTests {
    static let app = "com.example.storekeeper.demo"
    static let secretKey = "sk_demo_storekeeper_secret"

    /// A JSON object answer.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a refund whose notification is dropped is applied by reconciliation, and its late arrival is a duplicate")
    func droppedRefund() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try #"{"reconcileSeconds": 1}"#.write(to: config, atomically: true, encoding: .utf8)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
        defer { server.stop() }
        let base = server.baseURL
        let answer = try await ServeClient(base: base).subscribe("alice")
        let original = try #require(ServeRestartTests.originals(answer).first)

        let (dropped, mode) = try await ServeClient(base: base).call(
            .POST, "/simulator/v1/apps/\(Self.app)/delivery", key: nil, body: #"{"mode":"drop"}"#)
        #expect(dropped == 200 && mode.contains(#""mode":"drop""#), "\(mode)")
        let (refunded, _) = try await ServeClient(base: base).call(
            .POST, "/simulator/v1/transactions/\(original)/refund", key: nil, body: "{}")
        #expect(refunded == 200)

        var status = ""
        for _ in 0..<100 where status != "revoked" {
            try await Task.sleep(for: .milliseconds(100))
            let (_, document) = try await ServeClient(base: base).call(.GET, "/v1/subscribers/alice")
            let subscriber = try Self.object(document)["subscriber"] as? [String: Any]
            status = ((subscriber?["subscriptions"] as? [[String: Any]])?.first?["status"] as? String) ?? ""
        }
        #expect(status == "revoked", "the refund was found in Apple's history")

        let (_, eventsJSON) = try await ServeClient(base: base).call(.GET, APIPath.events("alice"), key: Self.secretKey)
        let events = try APICoding.decoder().decode(EventsResponse.self, from: Data(eventsJSON.utf8)).events
        let refunds = events.filter { $0.type == "REFUND" }
        #expect(refunds.map(\.cause) == ["reconciliation"])

        // The lost notification arrives after all: acknowledged, applied once.
        let (_, history) = try await ServeClient(base: base).call(
            .GET, "/simulator/v1/apps/\(Self.app)/notifications", key: nil)
        let refund = try #require(
            (try Self.object(history)["notifications"] as? [[String: Any]])?.first {
                $0["notificationType"] as? String == "REFUND"
            })
        #expect((refund["attempts"] as? [[String: Any]])?.map { $0["result"] as? String } == ["NO_RESPONSE"])
        let signed = try #require(refund["signedPayload"] as? String)
        let (late, outcome) = try await ServeClient(base: base).call(
            .POST, APIPath.notifications, key: nil, body: #"{"signedPayload":"\#(signed)"}"#)
        #expect(late == 200 && outcome.contains("duplicate"))
        let (_, afterJSON) = try await ServeClient(base: base).call(.GET, APIPath.events("alice"), key: Self.secretKey)
        #expect(
            try APICoding.decoder().decode(EventsResponse.self, from: Data(afterJSON.utf8)).events.count
                == events.count)
        let (bad, problem) = try await ServeClient(base: base).call(
            .POST, "/simulator/v1/apps/\(Self.app)/delivery", key: nil, body: #"{"mode":"lose"}"#)
        #expect(bad == 400 && problem.contains("deliver or drop"))
    }
}
