import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperServer
import TestSupport
import Testing

/// `storekeeper serve` tells the owner's backend: an endpoint added through the API receives each change as a
/// signed event, at least once, through failures and retries, and a dead letter is redelivered once fixed.
@Suite struct ServeWebhookTests {
    static let secretKey = "sk_demo_storekeeper_secret"

    /// Runs a demo server whose webhook retries wait `retry` seconds, beside a receiver, in a fresh directory.
    func withServer(
        retry: [Double], receiver: WebhookReceiver, timeout: Double = 60, settings: String = "",
        _ body: @Sendable (String, String) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        // A minute for each answer: the receiver runs in the test process, whose event loops are busy for seconds
        // while the whole suite starts; each attempt's result is asserted, so none may time out.
        try
            #"{"webhookRetrySeconds": \#(retry), "webhookTimeoutSeconds": \#(timeout), "leaseSeconds": \#(max(120, timeout * 2))\#(settings)}"#
            .write(
                to: config, atomically: true, encoding: .utf8)
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
            defer { server.stop() }
            try await body(server.baseURL, receiverBase)
        }
    }

    /// Adds an endpoint; returns its id and secret.
    static func addEndpoint(_ base: String, url: String, types: [String]) async throws -> (id: String, secret: String) {
        let list = types.map { "\"\($0)\"" }.joined(separator: ",")
        let (status, body) = try await ServeClient(base: base).call(
            .POST, "/v1/webhooks", key: secretKey, body: #"{"url":"\#(url)","event_types":[\#(list)]}"#)
        #expect(status == 201, "\(body)")
        let endpoint = try APICoding.decoder().decode(WebhookEndpoint.self, from: Data(body.utf8))
        return (endpoint.id, try #require(endpoint.secret))
    }

    static func deliveries(_ base: String, _ endpoint: String, status: String) async throws -> [WebhookDelivery] {
        let (code, body) = try await ServeClient(base: base).call(
            .GET, APIPath.deliveries(endpoint, status: status), key: secretKey)
        #expect(code == 200, "\(body)")
        return try APICoding.decoder().decode(WebhookDeliveriesResponse.self, from: Data(body.utf8)).deliveries
    }

    @Test("a receiver that fails three times then answers 200 gets the purchase once more each time, signed")
    func retriedUntilDelivered() async throws {
        let receiver = WebhookReceiver(statuses: [500, 503, 500])
        try await withServer(retry: [0.2, 0.2, 0.2, 0.2], receiver: receiver) { base, receiverBase in
            let endpoint = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: ["initial_purchase"])
            let (_, listed) = try await ServeClient(base: base).call(.GET, "/v1/webhooks", key: Self.secretKey)
            #expect(listed.contains(endpoint.id) && !listed.contains(endpoint.secret), "the secret is shown once")
            _ = try await ServeClient(base: base).subscribe("alice")
            #expect(try await receiver.wait(upTo: .seconds(90)) { $0.count >= 4 })
            try await Task.sleep(for: .milliseconds(600))
            let received = receiver.deliveries
            #expect(received.count == 4, "three failures, then one success, then nothing more")
            #expect(Set(received.map(\.eventID)).count == 1)
            let last = try #require(received.last)
            #expect(
                WebhookSignature.isValid(
                    try #require(last.signature), secret: endpoint.secret, body: Array(last.body), now: Date()))
            #expect(
                !WebhookSignature.isValid(
                    try #require(last.signature), secret: "whsec_wrong", body: Array(last.body), now: Date()))
            // The Standard Webhooks headers: the event's id on every attempt, and a signature a stock library checks.
            #expect(received.allSatisfy { $0.standard["webhook-id"] == $0.eventID })
            #expect(endpoint.secret.hasPrefix("whsec_"))
            #expect(
                try StandardWebhookSignatureTests.verifies(
                    last.standard, body: last.body, secret: endpoint.secret))
            let event = try APICoding.decoder().decode(WebhookEvent.self, from: last.body)
            #expect(event.id == last.eventID && event.type == "initial_purchase" && event.appUserID == "alice")
            #expect(event.cause == "client" && event.productID == "premium.monthly" && event.entitlements == ["pro"])
            #expect(event.subscriber.entitlements.map(\.identifier) == ["pro"])
            #expect(event.originalTransactionID != nil && event.expiresAt != nil && event.periodType != nil)
            let delivered = try await Self.deliveries(base, endpoint.id, status: "delivered")
            #expect(delivered.map(\.attempts) == [4] && delivered.first?.lastResult == "HTTP 200")
            let (_, byUser) = try await ServeClient(base: base).call(
                .GET, APIPath.subscriberDeliveries("alice"), key: Self.secretKey)
            #expect(byUser.contains(endpoint.id) && byUser.contains("initial_purchase"))
        }
    }

    @Test("a receiver that always fails leaves the delivery failed; redeliver succeeds once it is fixed")
    func deadLetterRedelivered() async throws {
        let receiver = WebhookReceiver()
        receiver.broken = true
        try await withServer(retry: [0.2, 0.2], receiver: receiver) { base, receiverBase in
            let endpoint = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: [])
            _ = try await ServeClient(base: base).subscribe("bob")
            #expect(try await receiver.wait(upTo: .seconds(90)) { $0.count >= 3 })
            var failed: [WebhookDelivery] = []
            for _ in 0..<50 where failed.isEmpty {
                failed = try await Self.deliveries(base, endpoint.id, status: "failed")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(failed.map(\.attempts) == [3] && failed.first?.lastResult == "HTTP 500", "\(failed)")
            receiver.broken = false
            let id = try #require(failed.first?.id)
            let (redelivered, _) = try await ServeClient(base: base).call(
                .POST, APIPath.redeliver(id), key: Self.secretKey)
            #expect(redelivered == 202)
            #expect(try await receiver.wait(upTo: .seconds(90)) { $0.count >= 4 })
            #expect(Set(receiver.deliveries.map(\.eventID)).count == 1)
            var delivered: [WebhookDelivery] = []
            for _ in 0..<50 where delivered.isEmpty {
                delivered = try await Self.deliveries(base, endpoint.id, status: "delivered")
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(delivered.map(\.id) == [id])
            let (missing, _) = try await ServeClient(base: base).call(
                .POST, APIPath.redeliver(999_999), key: Self.secretKey)
            #expect(missing == 404)
        }
    }

    @Test("a test event reaches one endpoint; bad endpoints are refused by name; a public key cannot manage them")
    func testEventsAndErrors() async throws {
        let receiver = WebhookReceiver()
        try await withServer(retry: [0.2], receiver: receiver) { base, receiverBase in
            let endpoint = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: ["renewal"])
            let (queued, _) = try await ServeClient(base: base).call(
                .POST, APIPath.webhookTest(endpoint.id), key: Self.secretKey)
            #expect(queued == 202)
            #expect(try await receiver.wait { $0.count == 1 })
            let event = try APICoding.decoder().decode(WebhookEvent.self, from: receiver.deliveries[0].body)
            #expect(event.type == "test" && event.cause == "test")
            for (body, code) in [
                (#"{"url":"ftp://example.com/hook"}"#, "invalid_url"),
                (#"{"url":"not a url"}"#, "invalid_url"),
                // The cloud metadata service and other addresses no receiver has (WebhookTarget).
                (#"{"url":"http://169.254.169.254/latest/meta-data"}"#, "link-local"),
                (#"{"url":"http://[fe80::1]/hook"}"#, "link-local"),
                (#"{"url":"http://[::ffff:169.254.169.254]/hook"}"#, "link-local"),
                (#"{"url":"http://0.0.0.0:8080/hook"}"#, "unspecified"),
                (#"{"url":"http://2852039166/latest/meta-data"}"#, "link-local"),
                (#"{"url":"https://example.com","event_types":["renewed"]}"#, "invalid_event_type"),
                (#"{"url":"https://example.com","event_types":"renewal"}"#, "invalid_field"),
                (#"{"event_types":[]}"#, "missing_field"),
                (#"{"url":"https://example.com","secret":"mine"}"#, "unknown_field"),
            ] {
                let (status, answer) = try await ServeClient(base: base).call(
                    .POST, "/v1/webhooks", key: Self.secretKey, body: body)
                #expect(status == 400 && answer.contains(code), "\(body): \(answer)")
            }
            let (forbidden, _) = try await ServeClient(base: base).call(.GET, "/v1/webhooks")
            #expect(forbidden == 403)
            let (deleted, _) = try await ServeClient(base: base).call(
                .DELETE, APIPath.webhook(endpoint.id), key: Self.secretKey)
            #expect(deleted == 204)
            let (gone, _) = try await ServeClient(base: base).call(
                .DELETE, APIPath.webhook(endpoint.id), key: Self.secretKey)
            #expect(gone == 404)
        }
    }

    @Test("300 test events to a receiver that never answers do not delay another endpoint's event")
    func hungReceiverDelaysNoOne() async throws {
        let silent = try SilentReceiver()
        defer { silent.stop() }
        let receiver = WebhookReceiver()
        // Five minutes for each answer: however slowly a loaded machine runs the test, the hung lanes are never
        // given up and reopened while it watches.
        try await withServer(
            retry: [0.2], receiver: receiver, timeout: 300, settings: #", "webhookTestsPerMinute": 1000"#
        ) {
            base, receiverBase in
            let hung = try await Self.addEndpoint(base, url: silent.base + "/hook", types: [])
            let healthy = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: [])
            for _ in 0..<300 {
                let (queued, body) = try await ServeClient(base: base).call(
                    .POST, APIPath.webhookTest(hung.id), key: Self.secretKey)
                #expect(queued == 202, "\(body)")
            }
            for _ in 0..<100 where silent.connections < 8 { try await Task.sleep(for: .milliseconds(50)) }
            // Every delivery to the hung receiver now waits up to five minutes (webhookTimeoutSeconds).
            let started = ContinuousClock.now
            let (queued, _) = try await ServeClient(base: base).call(
                .POST, APIPath.webhookTest(healthy.id), key: Self.secretKey)
            #expect(queued == 202)
            #expect(try await receiver.wait(upTo: .seconds(90)) { $0.count == 1 })
            let waited = ContinuousClock.now - started
            #expect(waited < .seconds(10), "the healthy endpoint's event waited \(waited)")
            #expect(silent.connections == 8, "the hung receiver holds eight connections, no more")
            silent.stop()  // its lanes end at once, and the server stops without waiting out their minute
        }
    }

    @Test("test events are rate-limited per endpoint: the eleventh in a minute is 429 with retry_after")
    func testEventsRateLimited() async throws {
        let receiver = WebhookReceiver()
        try await withServer(retry: [0.2], receiver: receiver) { base, receiverBase in
            let first = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: [])
            let second = try await Self.addEndpoint(base, url: receiverBase + "/hook", types: [])
            for _ in 0..<10 {
                let (queued, _) = try await ServeClient(base: base).call(
                    .POST, APIPath.webhookTest(first.id), key: Self.secretKey)
                #expect(queued == 202)
            }
            let (limited, body) = try await ServeClient(base: base).call(
                .POST, APIPath.webhookTest(first.id), key: Self.secretKey)
            #expect(limited == 429 && body.contains("rate_limited") && body.contains(#""retry_after":60"#), "\(body)")
            #expect(body.contains(first.id), "the message names the endpoint")
            let (other, _) = try await ServeClient(base: base).call(
                .POST, APIPath.webhookTest(second.id), key: Self.secretKey)
            #expect(other == 202, "another endpoint has its own limit")
            #expect(try await receiver.wait(upTo: .seconds(90)) { $0.count == 11 })
            try await Task.sleep(for: .milliseconds(500))
            #expect(receiver.deliveries.count == 11, "the refused test event was never queued")
        }
    }

    @Test("an endpoint kept in the configuration file is listed, receives signed events, and is not deleted by API")
    func configuredEndpoint() async throws {
        let receiver = WebhookReceiver()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "whsec_configured_0123456789abcdefghijklmnop"
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let config = directory.appendingPathComponent("config.json")
            try
                #"{"webhooks": [{"bundleID": "com.example.storekeeper.demo", "url": "\#(receiverBase)/hook", "secret": "\#(secret)", "eventTypes": ["initial_purchase"]}]}"#
                .writePrivately(to: config)
            let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
            defer { server.stop() }
            let (listed, list) = try await ServeClient(base: server.baseURL).call(
                .GET, "/v1/webhooks", key: Self.secretKey)
            let endpoints = try APICoding.decoder().decode(WebhookEndpointsResponse.self, from: Data(list.utf8))
                .endpoints
            #expect(listed == 200 && endpoints.count == 1 && endpoints.first?.secret == nil)
            let id = try #require(endpoints.first?.id)
            #expect(id.hasPrefix("cfg_") && endpoints.first?.eventTypes == ["initial_purchase"])
            #expect(!list.contains(secret))

            _ = try await ServeClient(base: server.baseURL).subscribe("carol")
            #expect(try await receiver.wait { !$0.isEmpty })
            let delivery = try #require(receiver.deliveries.first)
            #expect(
                WebhookSignature.isValid(
                    delivery.signature ?? "", secret: secret, body: Array(delivery.body), now: Date()),
                "signed with the configured secret")

            let (refused, problem) = try await ServeClient(base: server.baseURL).call(
                .DELETE, "/v1/webhooks/\(id)", key: Self.secretKey)
            #expect(refused == 409 && problem.contains("webhook_configured"), "\(problem)")
        }
    }
}
