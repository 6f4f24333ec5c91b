import Foundation
import StoreKeeperServer
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// A receiver that never answers slows only itself: with project B's endpoint hung and 300 of B's events waiting,
/// a purchase in project A reaches A's receiver at once, and B's receiver is held to its lanes' connections. The
/// cross-tenant ground (``TenantServers``): both projects on one server and one outbox, writes over HTTP.
@Suite struct WebhookDispatcherTests {
    @Test(
        "a project whose receiver never answers delays no other project's deliveries",
        arguments: TestDatabases.backends)
    func hungReceiverAcrossProjects(_ backend: String) async throws {
        let silent = try SilentReceiver()
        defer { silent.stop() }
        let healthy = WebhookReceiver()
        try await LiveServer.with(router: healthy.router()) { healthyBase in
            try await TenantServers.with(backend) { servers in
                let (hung, hungEndpoint) = try await servers.client.call(
                    .POST, "/v1/webhooks", key: TenantServers.secretB,
                    body: servers.client.json(["url": silent.base + "/hook"]))
                #expect(hung == 201)
                let hungID = try #require(hungEndpoint["id"] as? String)
                // B's flood is older than anything A does (the server runs on the simulator's clock): first in line.
                for index in 0..<300 {
                    try await servers.store.webhooks.enqueue(
                        OutboxEvent(id: "flood-\(index)", type: "test", body: "{}"), endpointID: hungID,
                        projectID: TenantServers.projectB.id, appUserKey: TenantServers.projectB.key("flood"),
                        now: Date(timeIntervalSince1970: 1_000_000_000 + Double(index)))
                }
                let (added, _) = try await servers.client.call(
                    .POST, "/v1/webhooks", key: TenantServers.secretA,
                    body: servers.client.json(["url": healthyBase + "/hook", "event_types": ["initial_purchase"]]))
                #expect(added == 201)
                // Each delivery may wait five minutes: a dispatcher that waited for B's answers would hold A's that
                // long, and however slowly a loaded machine runs the test, B's lanes are never given up and reopened.
                var options = WebhookDispatcher.Options()
                options.requestTimeout = .seconds(300)
                options.lease = 900
                options.idle = .milliseconds(50)
                let dispatcher = WebhookDispatcher(store: servers.store.webhooks, options: options, logger: quietLogger)
                let running = Task { try await dispatcher.run() }
                for _ in 0..<100 where silent.connections < 8 { try await Task.sleep(for: .milliseconds(50)) }
                #expect(silent.connections == 8, "B's receiver holds its eight lanes")
                let started = ContinuousClock.now
                let bought = try await servers.buy(TenantServers.appA, customer: "alice")
                let (posted, _) = try await servers.client.call(
                    .POST, "/v1/transactions", key: TenantServers.publicA,
                    body: servers.client.json(["app_user_id": "alice", "signed_transaction": bought.token]))
                #expect(posted == 200)
                #expect(try await healthy.wait(upTo: .seconds(60)) { $0.count >= 1 })
                let waited = ContinuousClock.now - started
                // Held behind B it would wait B's five-minute timeout; a minute leaves room for a loaded machine
                // (beside the whole suite on two cores it once took 8.1 s, alone 2 s).
                #expect(waited < .seconds(60), "A's event waited \(waited) behind B's hung receiver")
                #expect(silent.connections == 8, "no connection beyond B's lanes while they hang")
                let pending = try await servers.store.webhooks.webhookDeliveries(
                    projectID: TenantServers.projectB.id, endpointID: hungID, appUserKey: nil, status: .pending,
                    limit: 500)
                #expect(pending.count == 300 && pending.allSatisfy { $0.attempts == 0 }, "none answered yet")
                // The hung receiver goes away: its lanes end, and so does the dispatcher.
                running.cancel()
                silent.stop()
                _ = await running.result
            }
        }
    }
}
