import ArgumentParser
import Foundation
import Logging
import StoreKeeperCLI
import StoreKeeperServer
import StoreKeeperStorage

/// `storekeeper-lab webhook-bench --database-url postgres://…`: how fast the webhook dispatcher delivers a backlog to
/// a local receiver. Fills the outbox of a scratch database with events about the size of a real one, then runs
/// one dispatcher (as one `serve` does) until every event has arrived, signed, and reports events per second.
struct WebhookBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook-bench", abstract: "Measure webhook delivery of a backlog to a local receiver.",
        shouldDisplay: true)

    @Option(help: "A scratch PostgreSQL database (its outbox is filled), or none for SQLite in a temporary folder.")
    var databaseURL: String?
    @Option(help: "Events to deliver.") var events = 5_000
    @Option(help: "Events per second the result must reach (exit 1 below it); 0 checks nothing.") var target = 0.0

    func run() async throws {
        var configuration = ServerConfiguration()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        configuration.databaseURL = databaseURL
        configuration.dataDirectory = folder.path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try await StoreOpener.open(configuration)
        let client = WebhookHTTPClient()
        let receiver = LoadWebhookReceiver()
        let secret = "whsec_bench_" + UUID().uuidString
        receiver.expect(secret: secret)
        let total = events
        let seconds = try await receiver.run { url in
            let endpoint = "wh_bench_" + UUID().uuidString.prefix(8).lowercased()
            try await store.webhooks.createWebhookEndpoint(
                WebhookEndpointRecord(
                    id: endpoint, projectID: "bench", url: url, eventTypes: [], secret: secret, createdAt: Date()))
            try await Self.fill(store, endpoint: endpoint, count: total)
            var logger = Logger(label: "storekeeper.webhook-bench")
            logger.logLevel = .error
            let dispatcher = WebhookDispatcher(store: store.webhooks, client: client, logger: logger)
            let started = ContinuousClock.now
            let running = Task { try await dispatcher.run() }
            defer { running.cancel() }
            while receiver.tally.events.count < total {
                try await Task.sleep(for: .milliseconds(5))
                if ContinuousClock.now - started > .seconds(300) {
                    throw CommandFailure("only \(receiver.tally.events.count) of \(total) events in 5 minutes")
                }
            }
            let elapsed = ContinuousClock.now - started
            running.cancel()
            _ = await running.result
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        await client.shutdown()
        try await store.close()
        let tally = receiver.tally
        let rate = Double(total) / seconds
        FileHandleOutput.standardOutput(
            String(
                format:
                    "webhook delivery of a backlog: %d events in %.2f s = %.0f events/s (%d raw deliveries, %d bad signatures; %@)",
                total, seconds, rate, tally.raw, tally.badSignatures,
                (databaseURL == nil ? "SQLite" : "PostgreSQL") as NSString))
        if tally.badSignatures > 0 || tally.events.count < total || rate < target { throw ExitCode(1) }
    }

    /// Puts `count` pending deliveries of ~2 KB events in the outbox, sixteen writers at a time, with progress.
    static func fill(_ store: SQLStore, endpoint: String, count: Int) async throws {
        let padding = String(repeating: "x", count: 1_800)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    for index in stride(from: lane, to: count, by: 16) {
                        let id = UUID().uuidString.lowercased()
                        try await store.webhooks.enqueue(
                            OutboxEvent(
                                id: id, type: "renewal",
                                body:
                                    #"{"id":"\#(id)","type":"renewal","app_user_id":"bench-\#(index)","padding":"\#(padding)"}"#
                            ), endpointID: endpoint, projectID: "bench", appUserKey: "bench:bench-\(index)", now: Date()
                        )
                    }
                }
            }
            try await group.waitForAll()
        }
        FileHandleOutput.standardError("webhook-bench: \(count) events waiting in the outbox")
    }
}
