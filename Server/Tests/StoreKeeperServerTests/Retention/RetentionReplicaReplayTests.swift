import AppStoreSimulator
import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Trust round three, item 9: Apple's real-time retention request is answered once by the deployment, not once by
/// each replica. Two servers on one PostgreSQL: a genuine request answered by the first and captured on its way is
/// replayed to the second, which refuses it and records nothing — the admission is in the database.
@Suite struct RetentionReplicaReplayTests {
    typealias E2E = ServerEndToEndTests

    /// The retention events on `customer`, as the owner's backend reads them through `client`.
    static func retentionEvents(_ client: E2E.Client, _ customer: String) async throws -> [String] {
        let (_, body) = try await client.call(.GET, "/v1/subscribers/\(customer)/events", key: E2E.secretKey)
        return (body["events"] as? [[String: Any]] ?? []).compactMap { event in
            (event["type"] as? String).flatMap { $0.hasPrefix("retention_") ? $0 : nil }
        }
    }

    @Test("a request one replica answered is refused by the other and recorded nowhere")
    func replayedToTheOtherReplica() async throws {
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let stores = [
            try await SQLStore.postgres(url: url, folding: E2E.engine),
            try await SQLStore.postgres(url: url, folding: E2E.engine),
        ]
        defer { Task { for store in stores { try? await store.close() } } }
        // Apple's request names the app by its App Apple ID: both replicas know it.
        let appAppleID = SimulatedApp.demo(bundleID: E2E.bundleID).appAppleID
        try await E2E.withServers(
            on: stores,
            adjusted: { configuration in
                for index in configuration.apps.indices where configuration.apps[index].bundleID == E2E.bundleID {
                    configuration.apps[index].appAppleID = appAppleID
                }
            }
        ) { h, clients, _ in
            let (first, second) = (clients[0], clients[1])
            #expect(try await first.buy(h, "premium.monthly", customer: "rita").status == 200)
            let request = try await h.simulator.retentionRequest(
                bundleID: E2E.bundleID, customerID: "rita", locale: nil)
            let (answered, answer) = try await first.call(
                .POST, "/v1/retention/appstore", key: nil, body: request.body)
            // No rule answers: Apple shows its default message, and the exchange is recorded once.
            #expect(answered == 404, "\(answered) \(answer)")
            let recorded = try await Self.retentionEvents(first, "rita")
            #expect(recorded == ["retention_request", "retention_response"], "\(recorded)")

            for replica in [second, first] {
                let (replayed, refusal) = try await replica.call(
                    .POST, "/v1/retention/appstore", key: nil, body: request.body)
                let message = (refusal["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(replayed == 404 && message.contains("answered before"), "\(replayed) \(refusal)")
            }
            #expect(try await Self.retentionEvents(second, "rita") == recorded, "a replay is recorded nowhere")
        }
    }
}
