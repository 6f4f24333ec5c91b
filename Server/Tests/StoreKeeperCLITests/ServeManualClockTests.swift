import Foundation
import Hummingbird
import StoreKeeperAPI
import TestSupport
import Testing

/// `storekeeper serve --simulator-clock manual`: the in-process Apple and the server share one clock, moved by the
/// control API, so a month of renewals and their webhooks play out at once.
@Suite struct ServeManualClockTests {
    @Test("advancing the shared clock a month renews, and the renewal's webhook is stamped with simulated time")
    func monthInSeconds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manual-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let receiver = WebhookReceiver()
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let server = try await BackgroundCommand(
                ["serve", "--port", "0", "--simulator-clock", "manual", "--simulator-rate", "1h"], in: directory)
            defer { server.stop() }
            #expect(server.printed.contains("clock manual"))
            let client = ServeClient(base: server.baseURL)
            let (added, _) = try await client.call(
                .POST, "/v1/webhooks", key: "sk_demo_storekeeper_secret",
                body: #"{"url":"\#(receiverBase)/hook","event_types":["renewal"]}"#)
            #expect(added == 201)
            _ = try await client.subscribe("alice")
            let (_, before) = try await client.call(.GET, "/simulator/v1/clock", key: nil)
            let (advanced, _) = try await client.call(
                .POST, "/simulator/v1/clock/advance", key: nil, body: #"{"months":1.01}"#)
            #expect(advanced == 200)
            let (_, after) = try await client.call(.GET, "/simulator/v1/clock", key: nil)
            #expect(before != after)
            #expect(try await receiver.wait { $0.count >= 1 })
            let event = try APICoding.decoder().decode(WebhookEvent.self, from: receiver.deliveries[0].body)
            #expect(event.type == "renewal" && event.appUserID == "alice")
            // Stamped by the server's clock, which is the simulator's: about an hour (the rate's month) ahead of
            // the wall clock, not now.
            #expect(event.createdAt.timeIntervalSinceNow > 3_000)
        }
    }
}
