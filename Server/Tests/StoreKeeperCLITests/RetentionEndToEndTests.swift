import Foundation
import TestSupport
import Testing

/// Retention Messaging end to end against `storekeeper serve` with its in-process App Store: the owner's rules
/// choose the answer to Apple's signed real-time request, and the simulator, playing Apple, says what the customer
/// is shown — the rule's message when it is approved, Apple's default otherwise.
@Suite(.timeLimit(.minutes(3))) struct RetentionEndToEndTests {
    static let secretKey = "sk_demo_storekeeper_secret"
    static let bundleID = "com.example.storekeeper.demo"
    static let message = "6b1e5c0e-7f55-4a3c-9d1c-2a9f0e6d8a11"
    static let switchMessage = "0c9a2f44-1d3b-4e6a-8b7d-55e2c1f09a32"

    /// A demo server in a fresh directory.
    static func withServer(_ body: @Sendable (ServeClient) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(
            ["serve", "--port", "0", "--simulator-clock", "manual"], in: directory)
        defer { server.stop() }
        try await body(ServeClient(base: server.baseURL))
    }

    /// The customer opens their subscription's page: the simulator's report of what Apple showed.
    static func open(_ client: ServeClient, _ customer: String, locale: String = "en-US") async throws -> [String: Any]
    {
        let (status, body) = try await client.call(
            .POST, "/simulator/v1/apps/\(bundleID)/retention-requests", key: nil,
            body: #"{"customerID":"\#(customer)","locale":"\#(locale)"}"#)
        #expect(status == 200, "\(body)")
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// The app's App Store Server API token, from the simulator.
    static func apiToken(_ client: ServeClient) async throws -> String {
        let (_, tokenJSON) = try await client.call(.GET, "/simulator/v1/apps/\(bundleID)/api-token", key: nil)
        return try #require(
            (try JSONSerialization.jsonObject(with: Data(tokenJSON.utf8)) as? [String: Any])?["token"] as? String)
    }

    /// Uploads a message through Apple's Upload Message endpoint (with the app's API token) and reviews it.
    static func upload(_ client: ServeClient, _ id: String, approve: Bool) async throws {
        let token = try await apiToken(client)
        let (uploaded, answer) = try await client.call(
            .PUT, "/inApps/v1/messaging/message/\(id)", key: token,
            body: #"{"header":"Stay a little longer","body":"Your plan keeps every feature you use."}"#)
        #expect(uploaded == 200, "\(answer)")
        if approve {
            let (approved, _) = try await client.call(
                .POST, "/simulator/v1/apps/\(bundleID)/messages/\(id)/approve", key: nil)
            #expect(approved == 200)
        }
    }

    static func rules(_ client: ServeClient, _ json: String) async throws -> (Int, String) {
        try await client.call(.PUT, "/v1/retention/rules", key: secretKey, body: json)
    }

    @Test("a rule's approved message is shown in real time; no rule, or an unapproved message, shows the default")
    func message() async throws {
        try await Self.withServer { client in
            _ = try await client.subscribe("rita")
            // No rules yet: the server declines, Apple shows the default message.
            let declined = try await Self.open(client, "rita")
            #expect(declined["shown"] as? String == "none" && declined["status"] as? Int == 404, "\(declined)")

            let stay =
                #"{"rules":[{"identifier":"stay","when":{"product_id":["premium.monthly"],"locale":["en"]},"respond":{"message":{"message_id":"\#(Self.message)"}}}]}"#
            // A message Apple does not hold (Get Message List) would never show: refused by name, nothing saved.
            let (unknown, why) = try await Self.rules(client, stay)
            #expect(unknown == 400 && why.contains("rules[0].respond.message.message_id"), "\(why)")
            #expect(why.contains("not a message Apple holds"), "\(why)")
            let (_, none) = try await client.call(.GET, "/v1/retention/rules", key: Self.secretKey)
            #expect(!none.contains("\"stay\""))
            // One Apple's review rejected, likewise.
            let rejected = "a1b2c3d4-0000-4000-8000-00000000e001"
            try await Self.upload(client, rejected, approve: false)
            let (_, _) = try await client.call(
                .POST, "/simulator/v1/apps/\(Self.bundleID)/messages/\(rejected)/reject", key: nil)
            let (refused, reason) = try await Self.rules(
                client, #"{"rules":[{"identifier":"no","respond":{"message":{"message_id":"\#(rejected)"}}}]}"#)
            #expect(refused == 400 && reason.contains("rejected by Apple's review"), "\(reason)")

            // Uploaded, not approved yet: the rule is saved, the answer is well formed, Apple still shows the
            // default.
            try await Self.upload(client, Self.message, approve: false)
            let (saved, body) = try await Self.rules(client, stay)
            #expect(saved == 200, "\(body)")
            let (read, current) = try await client.call(.GET, "/v1/retention/rules", key: Self.secretKey)
            #expect(read == 200 && current.contains("\"stay\""))
            let pending = try await Self.open(client, "rita")
            #expect(pending["shown"] as? String == "none" && pending["status"] as? Int == 200, "\(pending)")
            #expect((pending["problem"] as? String)?.contains("PENDING") == true, "\(pending)")

            try await Self.upload(client, Self.switchMessage, approve: true)
            let (_, _) = try await client.call(
                .POST, "/simulator/v1/apps/\(Self.bundleID)/messages/\(Self.message)/approve", key: nil)
            let shown = try await Self.open(client, "rita")
            #expect(shown["shown"] as? String == "realtime", "\(shown)")
            let response = try #require(shown["response"] as? [String: Any])
            #expect((response["message"] as? [String: Any])?["messageIdentifier"] as? String == Self.message)
            #expect((shown["duration_ms"] as? Int ?? 1_000) < 700)

            // A customer whose locale no rule names gets the product's default message for the locale, once one
            // is configured (Apple's Configure Default Message; only an approved message may be one).
            let german = try await Self.open(client, "rita", locale: "de-DE")
            #expect(german["shown"] as? String == "none")
            let token = try await Self.apiToken(client)
            let (configured, _) = try await client.call(
                .PUT, "/inApps/v1/messaging/default/premium.monthly/de-DE", key: token,
                body: #"{"messageIdentifier":"\#(Self.switchMessage)"}"#)
            #expect(configured == 200)
            #expect(try await Self.open(client, "rita", locale: "de-DE")["shown"] as? String == "default")

            // Each request and answer is on the customer's events, naming the rule.
            let (_, events) = try await client.call(.GET, "/v1/subscribers/rita/events", key: Self.secretKey)
            #expect(events.contains("retention_request") && events.contains("retention_response"))
            #expect(events.contains("\"stay\""))
        }
    }

    @Test("a switch-plan answer names another product of the group; a product outside it is refused by Apple")
    func alternateProduct() async throws {
        try await Self.withServer { client in
            _ = try await client.subscribe("sam")
            try await Self.upload(client, Self.switchMessage, approve: true)
            _ = try await Self.rules(
                client,
                #"{"rules":[{"identifier":"downgrade","respond":{"alternate_product":{"message_id":"\#(Self.switchMessage)","product_id":"basic.monthly"}}}]}"#
            )
            let shown = try await Self.open(client, "sam")
            #expect(shown["shown"] as? String == "realtime", "\(shown)")
            let response = try #require(shown["response"] as? [String: Any])
            #expect((response["alternateProduct"] as? [String: Any])?["productId"] as? String == "basic.monthly")

            _ = try await Self.rules(
                client,
                #"{"rules":[{"identifier":"same","respond":{"alternate_product":{"message_id":"\#(Self.switchMessage)","product_id":"premium.monthly"}}}]}"#
            )
            let refused = try await Self.open(client, "sam")
            #expect(refused["shown"] as? String == "none" && refused["problem"] != nil, "\(refused)")
        }
    }

    @Test(
        "a promotional offer: never during a free trial; once paid, signed and accepted by Apple; then the frequency cap answers the next rule"
    )
    func promotionalOffer() async throws {
        let receiver = WebhookReceiver()
        try await LiveServer.with(router: receiver.router()) { hooks in
            try await Self.withServer { client in
                let (added, _) = try await client.call(
                    .POST, "/v1/webhooks", key: Self.secretKey,
                    body: #"{"url":"\#(hooks)/hook","event_types":["retention_offer_shown"]}"#)
                #expect(added == 201)
                try await Self.offerLifecycle(client, receiver)
            }
        }
    }

    /// Buys with a free trial, then asks as the trial runs and after it; the offer is announced to `receiver`.
    static func offerLifecycle(_ client: ServeClient, _ receiver: WebhookReceiver) async throws {
        do {
            // premium.monthly with its introductory free week.
            let (bought, _) = try await client.call(
                .POST, "/simulator/v1/purchases", key: nil,
                body:
                    #"{"bundleID":"\#(Self.bundleID)","productID":"premium.monthly","customerID":"pia","offer":"introductory"}"#
            )
            #expect(bought == 201)
            let (_, receiptJSON) = try await client.call(
                .GET, "/simulator/v1/apps/\(Self.bundleID)/receipt?customerID=pia", key: nil)
            let receipt = try #require(
                (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"]
                    as? String)
            let (posted, _) = try await client.call(
                .POST, "/v1/receipts", body: #"{"app_user_id":"pia","receipt":"\#(receipt)"}"#)
            #expect(posted == 200)
            try await Self.upload(client, Self.message, approve: true)
            try await Self.upload(client, Self.switchMessage, approve: true)
            let (saved, body) = try await Self.rules(
                client,
                #"{"rules":[{"identifier":"offer","respond":{"promotional_offer":{"message_id":"\#(Self.message)","offer_id":"winback50"}}},{"identifier":"fallback","respond":{"alternate_product":{"message_id":"\#(Self.switchMessage)","product_id":"basic.monthly"}}}]}"#
            )
            #expect(saved == 200, "\(body)")
            let inTrial = try await Self.open(client, "pia")
            #expect(
                inTrial["shown"] as? String == "realtime"
                    && (inTrial["response"] as? [String: Any])?["alternateProduct"] != nil, "\(inTrial)")

            // The trial ends and the first paid month begins; the server hears the renewal.
            let (advanced, _) = try await client.call(
                .POST, "/simulator/v1/clock/advance", key: nil, body: #"{"months":0.8}"#)
            #expect(advanced == 200)
            var paid = false
            for _ in 0..<100 where !paid {
                let (_, document) = try await client.call(.GET, "/v1/subscribers/pia", key: Self.secretKey)
                paid = document.contains(#""status":"active""#) && !document.contains("freeTrial")
                if !paid { try await Task.sleep(for: .milliseconds(100)) }
            }
            let (_, lastDocument) = try await client.call(.GET, "/v1/subscribers/pia", key: Self.secretKey)
            #expect(paid, "the renewal reached the server: \(lastDocument)")
            let offered = try await Self.open(client, "pia")
            #expect(offered["shown"] as? String == "realtime", "\(offered)")
            let offer = try #require((offered["response"] as? [String: Any])?["promotionalOffer"] as? [String: Any])
            #expect(offer["messageIdentifier"] as? String == Self.message)
            #expect((offer["promotionalOfferSignatureV2"] as? String)?.split(separator: ".").count == 3)
            // The owner's backend hears of it.
            #expect(
                try await receiver.wait {
                    $0.contains { String(decoding: $0.body, as: UTF8.self).contains("retention_offer_shown") }
                })
            let event = try #require(
                receiver.deliveries.compactMap {
                    try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any]
                }.first { $0["type"] as? String == "retention_offer_shown" })
            #expect(event["app_user_id"] as? String == "pia" && event["product_id"] as? String == "premium.monthly")

            // Asked again at once: the cap skips the offer, the next rule answers.
            let again = try await Self.open(client, "pia")
            #expect((again["response"] as? [String: Any])?["alternateProduct"] != nil, "\(again)")
        }
    }

    @Test("an endpoint that does not answer within 700 ms: Apple shows the default message")
    func tooSlow() async throws {
        let silent = try SilentReceiver()
        defer { silent.stop() }
        try await Self.withServer { client in
            _ = try await client.subscribe("tom")
            let (_, tokenJSON) = try await client.call(.GET, "/simulator/v1/apps/\(Self.bundleID)/api-token", key: nil)
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(tokenJSON.utf8)) as? [String: Any])?["token"] as? String)
            let (configured, _) = try await client.call(
                .PUT, "/inApps/v1/messaging/realtime/url", key: token,
                body: #"{"realtimeURL":"\#(silent.base)/retention"}"#)
            #expect(configured == 200)
            let started = ContinuousClock.now
            let report = try await Self.open(client, "tom")
            #expect(report["shown"] as? String == "none", "\(report)")
            #expect((report["problem"] as? String)?.contains("700 ms") == true)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test(
        "retention push uploads the images and messages and sets the real-time URL through Apple's API, then says nothing changed"
    )
    func push() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(
            ["serve", "--port", "0", "--simulator-clock", "manual"], in: directory)
        defer { server.stop() }
        let config = try await Self.apiConfiguration(directory, base: server.baseURL)
        let url = "https://subs.example.com/v1/retention/appstore"
        let image = "5e0d9b3a-1a6c-4b0d-8f2e-0c1d2e3f4a5b"
        try PNGFixture.make(width: 3840, height: 480).write(to: directory.appendingPathComponent("banner.png"))
        try
            #"{"bundleID":"\#(Self.bundleID)","realtimeURL":"\#(url)","images":[{"id":"\#(image)","path":"banner.png"}],"messages":[{"id":"\#(Self.message)","header":"Stay","body":"Every feature you use stays.","image":{"imageIdentifier":"\#(image)","altText":"The app's library"}}],"defaultMessages":{"premium.monthly":{"en-US":"\#(Self.message)"}}}"#
            .write(to: directory.appendingPathComponent("retention.json"), atomically: true, encoding: .utf8)
        let arguments = [
            "retention", "push", "--config", config, "--messages",
            directory.appendingPathComponent("retention.json").path,
        ]
        let first = try await CommandRunner.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("image \(image): uploaded"))
        #expect(first.standardOutput.contains("message \(Self.message): uploaded"))
        #expect(first.standardOutput.contains("realtime URL: set to \(url)"))
        #expect(first.standardOutput.contains("default message premium.monthly en-US: not set"))
        let client = ServeClient(base: server.baseURL)
        let (approved, _) = try await client.call(
            .POST, "/simulator/v1/apps/\(Self.bundleID)/messages/\(Self.message)/approve", key: nil)
        #expect(approved == 200)
        let second = try await CommandRunner.run(arguments)
        #expect(second.standardOutput.contains("default message premium.monthly en-US: not set: an image of"))
        #expect(second.standardOutput.contains("image \(image): unchanged (PENDING)"))
        let (imageApproved, _) = try await client.call(
            .POST, "/simulator/v1/apps/\(Self.bundleID)/images/\(image)/approve", key: nil)
        #expect(imageApproved == 200)
        let again = try await CommandRunner.run(arguments)
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("default message premium.monthly en-US: set to \(Self.message)"))
        #expect(again.standardOutput.contains("message \(Self.message): unchanged (APPROVED)"))
        #expect(again.standardOutput.contains("realtime URL: unchanged"))

        // Apple refuses a URL that is not http(s): exit 1, naming Apple's error.
        try #"{"bundleID":"\#(Self.bundleID)","realtimeURL":"ftp://nope"}"#
            .write(to: directory.appendingPathComponent("retention.json"), atomically: true, encoding: .utf8)
        let refused = try await CommandRunner.run(arguments)
        #expect(refused.status == 1 && refused.standardError.contains("4000215"), "\(refused.standardError)")
    }

    @Test("rules kept in the configuration file are the project's rules at start")
    func configured() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try
            #"{"retentionRules":{"\#(Self.bundleID)":{"rules":[{"identifier":"from-file","respond":{"message":{"message_id":"\#(Self.message)"}}}]}}}"#
            .write(to: directory.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", "config.json"], in: directory)
        defer { server.stop() }
        let (status, rules) = try await ServeClient(base: server.baseURL).call(
            .GET, "/v1/retention/rules", key: Self.secretKey)
        #expect(status == 200 && rules.contains("from-file"), "\(rules)")
    }

    /// A server configuration holding the demo app's App Store Connect key (as the simulator saved it: the .p8 a
    /// team downloads) and Apple's URL (the simulator): what `retention push` and `retention test` read.
    static func apiConfiguration(_ directory: URL, base: String) async throws -> String {
        var pem: String?
        for _ in 0..<50 where pem == nil {
            let world = try? Data(contentsOf: directory.appendingPathComponent("data/simulator/world.json"))
            let object = world.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            pem = (object?["generatedAPIKeys"] as? [String: String])?[Self.bundleID]
            if pem == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(pem).writePrivately(to: directory.appendingPathComponent("key.p8"))
        try
            #"{"apps":[{"bundleID":"\#(Self.bundleID)","issuerID":"57246542-96fe-1a63-e053-0824d011072a","keyID":"SIMKEY0001","privateKeyPath":"\#(directory.path)/key.p8"}],"serverAPIBaseURL":"\#(base)"}"#
            .writePrivately(to: directory.appendingPathComponent("push-config.json"))
        return directory.appendingPathComponent("push-config.json").path
    }

    @Test("retention test runs Apple's performance test against the server's endpoint: PASS with a rule, FAIL without")
    func performanceTest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(
            ["serve", "--port", "0", "--simulator-clock", "manual"], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        let subscribed = try await client.subscribe("perf")
        let original = try #require(
            ((subscribed["subscriber"] as? [String: Any])?["subscriptions"] as? [[String: Any]])?.first?[
                "original_transaction_id"] as? String)
        let config = try await Self.apiConfiguration(directory, base: server.baseURL)
        let arguments = [
            "retention", "test", "--config", config, "--bundle-id", Self.bundleID, "--original-transaction-id",
            original,
        ]
        try await Self.upload(client, Self.message, approve: true)
        let (saved, _) = try await Self.rules(
            client, #"{"rules":[{"identifier":"all","respond":{"message":{"message_id":"\#(Self.message)"}}}]}"#)
        #expect(saved == 200)
        let passed = try await CommandRunner.run(arguments)
        #expect(
            passed.status == 0 && passed.standardOutput.contains("performance test PASS: success 100 %"), "\(passed)")
        _ = try await Self.rules(client, #"{"rules":[]}"#)
        let failed = try await CommandRunner.run(arguments)
        #expect(failed.status == 1 && failed.standardOutput.contains("UNSUCCESSFUL_HTTP_RESPONSE_CODE 20"), "\(failed)")
    }

    @Test("broken rules are refused, naming the rule and the field; nothing is stored")
    func brokenRules() async throws {
        try await Self.withServer { client in
            for (json, words) in [
                (#"{"rules":[{"identifier":"a","respond":{}}]}"#, "exactly one"),
                (#"{"rules":[{"identifier":"a","respond":{"message":{"message_id":"hello"}}}]}"#, "not a UUID"),
                (
                    #"{"rules":[{"identifier":"a","when":{"stat":["active"]},"respond":{"message":{"message_id":"\#(Self.message)"}}}]}"#,
                    #"unknown field \"rules[0].when.stat\"; expected"#
                ),
                (
                    #"{"rules":[{"identifier":"a","when":{"state":["sleeping"]},"respond":{"message":{"message_id":"\#(Self.message)"}}}]}"#,
                    "rules[0].when.state"
                ),
            ] {
                let (status, body) = try await Self.rules(client, json)
                #expect(status == 400 && body.contains(words), "\(json): \(body)")
            }
            let (_, current) = try await client.call(.GET, "/v1/retention/rules", key: Self.secretKey)
            #expect(current.contains("\"rules\":[]"), "\(current)")
            let (refused, _) = try await client.call(.GET, "/v1/retention/rules")
            #expect(refused == 403 || refused == 401, "a public key does not read the rules")
        }
    }
}
