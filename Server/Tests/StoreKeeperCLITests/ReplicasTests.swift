import AppStoreSimulator
import Foundation
import Hummingbird
import StoreKeeperAPI
import StoreKeeperServer
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// Several `storekeeper serve` processes on one PostgreSQL cooperate with no leader: due polls and webhook
/// deliveries are leased, so each is done by one process, and the work of a process that dies is taken by the
/// others when its lease ends. Apple is a standalone `storekeeper simulator` on a manual clock, shared by both.
@Suite struct ReplicasTests {
    static let app = "com.example.replicas"
    static let publicKey = "pk_replicas_0123456789abcdefghijklmnopqrstuv"
    static let secretKey = "sk_replicas_0123456789abcdefghijklmnopqrstuv"
    static let subscribers = 1_000
    /// Seconds from the start for buying and importing every subscriber: their renewals fall due after it, so the
    /// test waits this long whatever the seeding took. Alone on two cores, which is how `scripts/test` runs this
    /// suite, seeding took 7–9 s on the release build (CI and here, 2026-12); the wait was 90 s, the largest share
    /// of the debug suite's time (docs/performance.md, "Build time"). The test fails, naming the seconds, if
    /// seeding ever takes longer.
    static let seeding: TimeInterval = 40
    /// A sandbox year at the simulator's default rate (5m): the annual plan's period.
    static let year: TimeInterval = 3_600
    /// How long a dead process's polls and deliveries stay taken (a delivery waits at most half of it for an
    /// answer: 4 s, for a receiver in the test process, which shares two cores with the whole suite).
    static let lease: Double = 8

    /// A JSON object.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The server configuration both processes share: the simulator as Apple, credentials, keys, fast polls.
    static func configuration(database: String, simulator: String, pki: URL, apiKey: String) throws -> Data {
        let demo = SimulatedApp.demo(bundleID: app)
        let object: [String: Any] = [
            "databaseURL": database, "simulator": false, "serverAPIBaseURL": simulator,
            "verifyReceiptProductionURL": simulator + "/verifyReceipt",
            "verifyReceiptSandboxURL": simulator + "/sandbox/verifyReceipt",
            "apps": [
                [
                    "bundleID": app, "appAppleID": demo.appAppleID, "sharedSecret": demo.sharedSecret,
                    "environment": "Sandbox", "issuerID": demo.issuerID, "keyID": demo.apiKeyID,
                    "privateKeyPEM": apiKey,
                    "extraRootPaths": [
                        pki.appendingPathComponent("jws-root.der").path,
                        pki.appendingPathComponent("receipt-root.der").path,
                    ],
                ]
            ],
            "apiKeys": [
                ["key": publicKey, "kind": "public", "bundleID": app],
                ["key": secretKey, "kind": "secret", "bundleID": app],
            ],
            "engine": [
                "entitlements": ["premium.annual": ["premium"]], "subscriptionGroups": ["premium.annual": "pro"],
            ],
            "pollDelaySeconds": 1, "pollRetrySeconds": 2, "pollRequestsPerSecond": 500, "leaseSeconds": lease,
            "reconcileSeconds": 86_400,
            // Short waits, so a delivery the dead process took is retried soon; five attempts over about a minute,
            // so a receiver slowed by the rest of the suite on two cores does not turn a delivered event into a
            // failed one.
            "webhookRetrySeconds": [2, 4, 8, 16],
        ]
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// What the receiver got: each event (by id) with its type, subscriber and cause, and the raw count.
    struct Received {
        var events: [String: (type: String, user: String, cause: String)] = [:]
        var raw = 0

        init(_ deliveries: [WebhookReceiver.Delivery]) {
            raw = deliveries.count
            for delivery in deliveries {
                guard let event = try? JSONSerialization.jsonObject(with: delivery.body) as? [String: Any],
                    let id = event["id"] as? String
                else { continue }
                events[id] = (
                    event["type"] as? String ?? "", event["app_user_id"] as? String ?? "",
                    event["cause"] as? String ?? ""
                )
            }
        }

        /// The subscribers with an event of `type`, and how many events of it there were.
        func users(_ type: String) -> (users: Set<String>, events: Int) {
            let matching = events.values.filter { $0.type == type }
            return (Set(matching.map(\.user)), matching.count)
        }
    }

    @Test("two servers on one PostgreSQL: every poll and every webhook event once, and a SIGKILL loses nothing")
    func twoServersShareTheWork() async throws {
        guard let database = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replicas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Apple, with its clock set so that the annual plans bought now renew once the seeding is done.
        let started = Date()
        let renewalDue = started.addingTimeInterval(Self.seeding)
        let simulatorData = directory.appendingPathComponent("simulator")
        let apple = try await BackgroundCommand(
            [
                "simulator", "--port", "0", "--clock", "manual", "--no-demo", "--data", simulatorData.path,
                "--clock-start", ISO8601DateFormatter().string(from: renewalDue.addingTimeInterval(-Self.year)),
            ], in: directory)
        defer { apple.stop() }
        let appleClient = ServeClient(base: apple.baseURL)
        let appJSON = String(decoding: try JSONEncoder().encode(SimulatedApp.demo(bundleID: Self.app)), as: UTF8.self)
        let (created, createdBody) = try await appleClient.call(.POST, "/simulator/v1/apps", key: nil, body: appJSON)
        #expect(created == 201, "\(createdBody)")
        let apiKey = try #require(try Self.object(createdBody)["apiPrivateKeyPEM"] as? String)

        let config = directory.appendingPathComponent("config.json")
        try Self.configuration(
            database: database, simulator: apple.baseURL, pki: simulatorData.appendingPathComponent("pki"),
            apiKey: apiKey
        ).writePrivately(to: config)
        let receiver = WebhookReceiver()
        try await LiveServer.with(router: receiver.router()) { receiverBase in
            let first = try await BackgroundCommand(
                ["serve", "--port", "0", "--config", config.path], in: directory,
                standardError: directory.appendingPathComponent("first.log"))
            defer { first.kill() }
            let second = try await BackgroundCommand(
                ["serve", "--port", "0", "--config", config.path], in: directory,
                standardError: directory.appendingPathComponent("second.log"))
            defer { second.stop() }
            let (added, addedBody) = try await ServeClient(base: first.baseURL).call(
                .POST, "/v1/webhooks", key: Self.secretKey, body: #"{"url":"\#(receiverBase)/hook"}"#)
            #expect(added == 201, "\(addedBody)")
            let endpoint = try #require(try Self.object(addedBody)["id"] as? String)

            // 1,000 customers buy the annual plan; half are imported through each server.
            let originals = try await Self.seed(apple: appleClient, servers: [first.baseURL, second.baseURL])
            print("replicas: seeded \(Self.subscribers) subscribers in \(Int(Date().timeIntervalSince(started))) s")
            #expect(
                Date() < renewalDue.addingTimeInterval(-2),
                "seeding took \(Int(Date().timeIntervalSince(started))) s, more than the \(Int(Self.seeding)) s budget")
            // Apple renews every subscription, and tells no one: only polling can find out.
            let (advanced, _) = try await appleClient.call(
                .POST, "/simulator/v1/clock/advance", key: nil, body: #"{"seconds": \#(Self.year + 1)}"#)
            #expect(advanced == 200)

            // Once a quarter of the renewals have reached the receiver, the first server dies without a word.
            let quarter = try await receiver.wait(upTo: .seconds(Self.seeding + 240)) {
                Received($0).users("renewal").events >= Self.subscribers / 4
            }
            #expect(quarter, "polling found a quarter of the renewals")
            first.kill()
            let finished = try await receiver.wait(upTo: .seconds(240)) {
                Received($0).users("renewal").events >= Self.subscribers
            }
            #expect(finished, "the second server finished the first one's work")
            if !quarter || !finished {
                for name in ["first.log", "second.log"] {
                    let log = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
                    let problems = log.split(separator: "\n").filter { !$0.contains(" info ") }.suffix(20)
                    print("replicas: \(name) ends with\n" + problems.joined(separator: "\n"))
                }
            }
            try await Task.sleep(for: .seconds(Self.lease + 2))

            let received = Received(receiver.deliveries)
            let everyone = Set((0..<Self.subscribers).map { "replica-\($0)" })
            let purchases = received.users("initial_purchase")
            let renewals = received.users("renewal")
            #expect(purchases.users == everyone && purchases.events == Self.subscribers)
            #expect(renewals.users == everyone && renewals.events == Self.subscribers, "one renewal event each")
            #expect(Set(received.events.values.filter { $0.type == "renewal" }.map(\.cause)) == ["poll"])
            #expect(received.events.count == 2 * Self.subscribers, "no other event: \(received.events.count)")
            let repeated = received.raw - received.events.count
            // At least once: only deliveries the dead process had taken may arrive twice.
            #expect(repeated <= WebhookDispatcher.Options().batch, "\(repeated) deliveries repeated")
            // Nothing is left: a delivery whose answer came late may still wait for a retry (pending, for up to
            // 60 s); none has failed.
            for status in ["pending", "failed"] {
                var left: [WebhookDelivery] = []
                for _ in 0..<(status == "pending" ? 60 : 1) {
                    let (code, body) = try await ServeClient(base: second.baseURL).call(
                        .GET, APIPath.deliveries(endpoint, status: status), key: Self.secretKey)
                    #expect(code == 200)
                    left = try APICoding.decoder().decode(WebhookDeliveriesResponse.self, from: Data(body.utf8))
                        .deliveries
                    if left.isEmpty { break }
                    try await Task.sleep(for: .seconds(1))
                }
                #expect(left.isEmpty, "\(left.count) deliveries \(status): \(left.prefix(3))")
            }

            // Apple was asked about each subscriber twice — the import and its one due poll — except the polls
            // the dead process had taken and may have sent: those are asked again once its lease ended.
            let (_, requestsBody) = try await appleClient.call(.GET, "/simulator/v1/requests", key: nil)
            let counts = try #require(try Self.object(requestsBody)["serverAPI"] as? [String: Int])
            let asked = originals.map { counts["GET /inApps/v1/subscriptions/\($0)"] ?? 0 }
            #expect(asked.allSatisfy { $0 >= 2 }, "every subscriber was polled")
            let again = asked.reduce(0) { $0 + max(0, $1 - 2) }
            #expect(again <= 50, "\(again) polls repeated (the dead process's one batch at most)")
            print(
                "replicas: \(received.events.count) events, \(received.raw) raw deliveries (\(repeated) repeated "
                    + "after the SIGKILL), \(asked.reduce(0, +)) status requests (\(again) repeated)")
        }
    }

    /// Buys the annual plan for every customer at Apple and imports each through one of the servers, eight at
    /// a time.
    /// - Returns: The original transaction ids, by customer index.
    static func seed(apple: ServeClient, servers: [String]) async throws -> [String] {
        var originals = [String](repeating: "", count: subscribers)
        try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for lane in 0..<8 {
                group.addTask {
                    var bought: [(Int, String)] = []
                    for index in stride(from: lane, to: subscribers, by: 8) {
                        let (status, body) = try await apple.call(
                            .POST, "/simulator/v1/purchases", key: nil,
                            body: #"{"bundleID":"\#(app)","productID":"premium.annual","customerID":"c\#(index)"}"#)
                        guard status == 201, let id = try object(body)["originalTransactionId"] as? String else {
                            throw CocoaError(.coderInvalidValue, userInfo: ["purchase": body])
                        }
                        let (imported, answer) = try await ServeClient(base: servers[index % servers.count]).call(
                            .POST, "/v1/imports", key: secretKey,
                            body: #"{"app_user_id":"replica-\#(index)","original_transaction_id":"\#(id)"}"#)
                        guard imported == 200 else {
                            throw CocoaError(.coderInvalidValue, userInfo: ["import": answer])
                        }
                        bought.append((index, id))
                    }
                    return bought
                }
            }
            for try await lane in group {
                for (index, id) in lane { originals[index] = id }
            }
        }
        return originals
    }
}
