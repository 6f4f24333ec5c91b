import AppStoreSigning
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperServer

/// `storekeeper-lab load --url U --data DIR`: a load generator for a running `storekeeper serve` with the
/// in-process simulator. Seeds subscribers, then measures subscriber reads, a bare route, and verified V2
/// notification ingestion, reporting requests/s and p99 side by side.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load", abstract: "Load-test a running storekeeper serve (with its simulator).",
        shouldDisplay: true)

    @Option(help: "The server's base URL.") var url = "http://127.0.0.1:8080"
    @Option(help: "The server's simulator PKI folder (to sign notifications like the simulator).") var pki =
        "data/simulator/pki"
    @Option(help: "Subscribers to seed.") var subscribers = 10_000
    @Option(help: "Seconds per read measurement.") var duration = 10.0
    @Option(help: "Concurrent connections.") var concurrency = 32
    @Option(help: "V2 notifications to ingest.") var notifications = 5_000
    @Flag(
        inversion: .prefixedNo,
        help:
            "Then add a webhook endpoint (a receiver in this process), ingest as many notifications again, and time their delivery."
    )
    var webhooks = true
    @Option(
        help:
            "The event types the endpoint wants (comma-separated). Default renewal; another type (e.g. refund) measures events written but never delivered."
    )
    var webhookTypes = "renewal"
    @Option(
        help:
            "Rounds of the webhook comparison: each posts a share of the notifications without an endpoint, then a share with one (so a slow minute or a growing database weighs on both alike). One more round before them warms both paths and is not counted."
    )
    var rounds = 3
    @Flag(help: "Print the results as JSON.") var json = false

    static let bundleID = ServerConfiguration.demoBundleID
    static let publicKey = "pk_demo_storekeeper_public"
    static let secretKey = "sk_demo_storekeeper_secret"
    /// The plan every seeded subscriber buys: the annual one, whose sandbox year (an hour) outlasts the whole
    /// check, so the simulator renews nothing while requests are measured (10,000 monthly plans would renew
    /// about 33 times a second, each renewal signing a receipt and delivering two notifications, all on
    /// the server's cores).
    static let productID = "premium.annual"

    struct Measurement {
        var name: String
        var count: Int
        var seconds: Double
        var latencies: [Double]
        var failures: Int
        /// How much CPU the host took (steal) and how much stayed idle while it ran, where known.
        var host: HostCPU.Share?
        var perSecond: Double { Double(count) / seconds }

        /// One measurement of several, as if run back to back (requests and seconds added, host shares weighed
        /// by time).
        static func combined(_ name: String, _ parts: [Measurement]) -> Measurement {
            let seconds = parts.reduce(0) { $0 + $1.seconds }
            let timed = parts.filter { $0.host != nil }
            let hostSeconds = timed.reduce(0) { $0 + $1.seconds }
            return Measurement(
                name: name, count: parts.reduce(0) { $0 + $1.count }, seconds: seconds,
                latencies: parts.flatMap(\.latencies), failures: parts.reduce(0) { $0 + $1.failures },
                host: hostSeconds > 0
                    ? HostCPU.Share(
                        stealPercent: timed.reduce(0) { $0 + ($1.host?.stealPercent ?? 0) * $1.seconds } / hostSeconds,
                        idlePercent: timed.reduce(0) { $0 + ($1.host?.idlePercent ?? 0) * $1.seconds } / hostSeconds)
                    : nil)
        }
        var p99: Double {
            guard !latencies.isEmpty else { return 0 }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        }
    }

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(
                    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency * 2)))
        defer { _ = client.shutdown() }
        let speedBefore = P256Speed.measure()
        let seeded = try await seed(client)
        try await waitForDeliveries(client)
        // Each subscriber once: every answer is computed from a database read (nothing is remembered yet).
        let firstReads = try await measure("GET subscriber, first read", limit: seeded.count) { index in
            ("GET", APIPath.subscriber("load-\(index)"), nil)
        }
        let reads = try await measure("GET /v1/subscribers/{id}") { index in
            ("GET", APIPath.subscriber("load-\(index % seeded.count)"), nil)
        }
        // The demo server's paywall (its seeded current offering), answered from memory.
        let offerings = try await measure("GET .../{id}/offerings") { index in
            ("GET", APIPath.subscriberOfferings("load-\(index % seeded.count)"), nil)
        }
        let bare = try await measure("GET /health (bare route)") { _ in ("GET", "/health", nil) }
        // Apple's real-time retention request, answered by a rule and recorded (two events and an answer row). The
        // rule's message is uploaded to the simulator first: the server refuses a rule naming one Apple lacks.
        let message = UUID().uuidString.lowercased()
        let token =
            try await call(client, "GET", "/simulator/v1/apps/\(Self.bundleID)/api-token", nil)["token"] as? String
            ?? ""
        _ = try await call(
            client, "PUT", "/inApps/v1/messaging/message/\(message)", ["header": "Stay", "body": "Please stay."],
            bearer: token)
        // A rule on the subscription's state, as owners write them: the customer's document is read per request.
        let rule: [String: Any] = [
            "identifier": "load", "when": ["state": ["active", "grace"]],
            "respond": ["message": ["message_id": message]],
        ]
        _ = try await call(client, "PUT", APIEndpoint.putRetentionRules.path, ["rules": [rule]], bearer: Self.secretKey)
        let realtime = try makeRealtimeRequests(originals: seeded, count: min(notifications, 2_000))
        let retention = try await measure("POST /v1/retention/appstore", limit: realtime.count) { index in
            ("POST", APIEndpoint.postRetentionRequest.path, realtime[index])
        }
        FileHandleOutput.standardError("signing \(notifications) V2 notifications")
        let bodies = try await makeNotifications(originals: seeded)
        var results = [firstReads, reads, offerings, bare, retention]
        var delivery: (tally: LoadWebhookReceiver.Tally, expected: Int)?
        let ingest: Measurement
        if webhooks {
            let comparison = try await compareWithWebhook(client, originals: seeded, plain: bodies)
            ingest = comparison.without
            results += [comparison.without, comparison.with]
            delivery = (comparison.tally, comparison.expected)
        } else {
            FileHandleOutput.standardError("posting \(bodies.count) V2 notifications")
            ingest = try await measure("POST V2 notification", bodies: bodies)
            results.append(ingest)
        }
        let speedAfter = P256Speed.measure()
        if json {
            let objects = results.map { result -> [String: Any] in
                var object: [String: Any] = [
                    "name": result.name, "requests": result.count, "per_second": result.perSecond,
                    "p99_ms": result.p99 * 1000,
                    "failures": result.failures,
                ]
                if let host = result.host {
                    object["host_steal_percent"] = host.stealPercent
                    object["host_idle_percent"] = host.idlePercent
                }
                return object
            }
            var report: [String: Any] = [
                "results": objects,
                "p256_verify_us": ["before": speedBefore.microseconds, "after": speedAfter.microseconds],
            ]
            if let delivery {
                report["webhook_delivery"] = [
                    "events": delivery.tally.events.count, "expected": delivery.expected,
                    "raw_deliveries": delivery.tally.raw, "bad_signatures": delivery.tally.badSignatures,
                    "per_second": delivery.tally.perSecond,
                ]
            }
            FileHandleOutput.standardOutput(
                String(
                    decoding: try JSONSerialization.data(
                        withJSONObject: report, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self))
        } else {
            for result in results {
                let host =
                    result.host.map {
                        String(format: "  host steal %3.0f %%  idle %3.0f %%", $0.stealPercent, $0.idlePercent)
                    } ?? ""
                FileHandleOutput.standardOutput(
                    String(
                        format: "%-30@ %8d req  %9.0f req/s  p99 %7.2f ms  failures %d", result.name as NSString,
                        result.count,
                        result.perSecond, result.p99 * 1000, result.failures) + host)
            }
            FileHandleOutput.standardOutput(
                String(format: "subscriber reads = %.0f %% of the bare route", reads.perSecond / bare.perSecond * 100))
            FileHandleOutput.standardOutput(
                String(
                    format: "offerings reads = %.0f %% of the bare route (target >= 50 %%)",
                    offerings.perSecond / bare.perSecond * 100))
            FileHandleOutput.standardOutput(
                String(
                    format:
                        "retention endpoint p99 = %.2f ms at %d concurrent requests (Apple waits 700 ms; target < 50 ms on PostgreSQL)",
                    retention.p99 * 1000, concurrency))
            if let delivery, let hooked = results.last {
                FileHandleOutput.standardOutput(
                    String(
                        format:
                            "ingestion with one webhook endpoint = %.0f %% of ingestion without (%d rounds each, target >= 80 %%)",
                        hooked.perSecond / ingest.perSecond * 100, Self.rounds(rounds, notifications).counted))
                FileHandleOutput.standardOutput(
                    String(
                        format:
                            "webhook delivery: %d of %d events (%d raw deliveries, %d bad signatures), %.0f events/s from the first to the last (target >= 1,000 on PostgreSQL)",
                        delivery.tally.events.count, delivery.expected, delivery.tally.raw,
                        delivery.tally.badSignatures, delivery.tally.perSecond))
            }
            FileHandleOutput.standardOutput(
                String(
                    format: "machine speed: one P-256 verify %.1f µs before, %.1f µs after (one core, same binary)",
                    speedBefore.microseconds, speedAfter.microseconds))
        }
        if results.contains(where: { $0.failures > 0 }) { throw ExitCode(1) }
        if let delivery, delivery.tally.events.count < delivery.expected || delivery.tally.badSignatures > 0 {
            throw ExitCode(1)
        }
    }

    /// How many rounds the webhook comparison runs for `notifications` and how many of them count: one more than
    /// asked, the first warming both paths (the first webhook round otherwise pays for first connections and
    /// first statements alone); a single round when there are too few notifications to split.
    static func rounds(_ asked: Int, _ notifications: Int) -> (total: Int, counted: Int) {
        let counted = max(1, min(asked, notifications - 1))
        return counted > 1 || notifications > 1 ? (counted + 1, counted) : (1, 1)
    }

    /// Ingestion without and with a webhook endpoint, in alternating rounds: each round posts a share of `plain`
    /// with no endpoint, then adds an endpoint pointing at a receiver in this process, posts as many other
    /// notifications (renewals of other subscribers, or later periods), waits until every event they announce
    /// has been delivered, and removes the endpoint. The first round (``rounds(_:_:)``) is not counted.
    /// - Returns: Both measurements (counted rounds added up), what the receiver got, and how many events were
    ///   expected.
    func compareWithWebhook(_ client: HTTPClient, originals: [String], plain: [Data]) async throws -> (
        without: Measurement, with: Measurement, tally: LoadWebhookReceiver.Tally, expected: Int
    ) {
        FileHandleOutput.standardError("signing \(notifications) more V2 notifications (for the webhook endpoint)")
        let hooked = try await makeNotifications(originals: originals, offset: notifications)
        let types = webhookTypes.split(separator: ",").map(String.init)
        let expected =
            types.contains("renewal") ? Set((0..<hooked.count).map { (notifications + $0) % originals.count }).count : 0
        let (rounds, counted) = Self.rounds(rounds, min(plain.count, hooked.count))
        let warmup = rounds - counted
        let receiver = LoadWebhookReceiver()
        return try await receiver.run { hookURL in
            var without: [Measurement] = []
            var with: [Measurement] = []
            for round in 0..<rounds {
                let share = { (bodies: [Data]) in
                    Array(bodies[bodies.count * round / rounds..<bodies.count * (round + 1) / rounds])
                }
                let label = round < warmup ? "warm-up round" : "round \(round - warmup + 1)/\(counted)"
                FileHandleOutput.standardError("\(label): posting V2 notifications")
                without.append(try await measure("POST V2 notification", bodies: share(plain)))
                let endpoint = try await call(
                    client, "POST", APIPath.webhooks, ["url": hookURL, "event_types": types],
                    bearer: ServerConfiguration.demoSecretKey)
                receiver.expect(secret: endpoint["secret"] as? String ?? "")
                let bodies = share(hooked)
                FileHandleOutput.standardError(
                    "\(label): posting V2 notifications with a webhook endpoint")
                let before = receiver.tally.events.count
                with.append(try await measure("POST V2 notification, webhook", bodies: bodies))
                let due = types.contains("renewal") ? before + bodies.count : 0
                try await waitForEvents(receiver, count: min(due, expected))
                receiver.closeRound()
                FileHandleOutput.standardError(
                    String(
                        format: "%@: %.0f notifications/s without an endpoint, %.0f with one (%.0f %%)",
                        label as NSString, without[round].perSecond, with[round].perSecond,
                        with[round].perSecond / without[round].perSecond * 100))
                _ = try await call(
                    client, "DELETE", APIPath.webhook(endpoint["id"] as? String ?? ""), nil,
                    bearer: ServerConfiguration.demoSecretKey)
            }
            return (
                Measurement.combined("POST V2 notification", Array(without.dropFirst(warmup))),
                Measurement.combined("POST V2 notification, webhook", Array(with.dropFirst(warmup))), receiver.tally,
                expected
            )
        }
    }

    /// Waits (up to two minutes) until the receiver has `count` distinct events.
    func waitForEvents(_ receiver: LoadWebhookReceiver, count: Int) async throws {
        let started = Date()
        var seen = -1
        while Date().timeIntervalSince(started) < 120 {
            let received = receiver.tally.events.count
            if received >= count { return }
            if received != seen {
                FileHandleOutput.standardError("webhook events delivered: \(received)/\(count)")
                seen = received
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Waits until the in-process simulator has delivered every notification the seeding caused, so their
    /// ingestion does not run during a measurement.
    func waitForDeliveries(_ client: HTTPClient) async throws {
        let started = Date()
        while Date().timeIntervalSince(started) < 600 {
            let pending = try await call(client, "GET", "/simulator/v1/deliveries", nil)["pending"] as? Int ?? 0
            if pending == 0 { return }
            FileHandleOutput.standardError("waiting for \(pending) simulator notification deliveries")
            try await Task.sleep(for: .seconds(2))
        }
        throw CommandFailure("simulator deliveries did not drain within 10 minutes")
    }

    /// Runs `concurrency` keep-alive connections (``LoadConnection``): for `duration` seconds over generated
    /// requests (or for `limit` requests), or once over `bodies`.
    func measure(
        _ name: String, bodies: [Data]? = nil, limit: Int? = nil,
        request: (@Sendable (Int) -> (String, String, Data?))? = nil
    ) async throws -> Measurement {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw ValidationError("--url \(url) is not an http://host:port URL")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(host):\(components.port ?? 80)")
        headers.add(name: "Authorization", value: "Bearer \(Self.publicKey)")
        headers.add(name: "Content-Type", value: "application/json")
        let source: LoadSource
        if let bodies {
            source = LoadSource(
                fixed: bodies.map {
                    LoadRequest(method: .POST, path: APIPath.notifications, body: ByteBuffer(bytes: $0))
                })
        } else {
            let request = request ?? { _ in ("GET", "/health", nil) }
            source = LoadSource(
                limit: limit, deadline: limit == nil ? .now() + .nanoseconds(Int64(duration * 1e9)) : nil
            ) { index in
                let (method, path, body) = request(index)
                return LoadRequest(
                    method: HTTPMethod(rawValue: method), path: path, body: body.map { ByteBuffer(bytes: $0) })
            }
        }
        let cpuBefore = HostCPU.sample()
        let started = Date()
        let result = try await LoadConnection.run(
            host: host, port: components.port ?? 80, count: concurrency, headers: headers, source: source)
        let seconds = Date().timeIntervalSince(started)
        let share = cpuBefore.flatMap { before in HostCPU.sample()?.share(since: before) }
        return Measurement(
            name: name, count: result.latencies.count, seconds: seconds, latencies: result.latencies,
            failures: result.failures,
            host: share)
    }

    func call(_ client: HTTPClient, _ method: String, _ path: String, _ body: [String: Any]?, bearer: String? = nil)
        async throws -> [String: Any]
    {
        var request = HTTPClientRequest(url: url + path)
        request.method = HTTPMethod(rawValue: method)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body { request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let data = Data(try await response.body.collect(upTo: 1 << 24).readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw ValidationError(
                "\(method) \(path): HTTP \(response.status.code) \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
