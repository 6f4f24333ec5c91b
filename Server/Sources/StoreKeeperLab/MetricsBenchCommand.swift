import AppStoreModels
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionMetrics

/// `storekeeper-lab metrics-bench`: issue 20's dashboard speed check. Stores a synthetic history of `--subscribers`
/// customers (``SyntheticHistory``; kept, so a rerun on the same database skips it) through a server in this
/// process, then — on PostgreSQL — starts a fresh `storekeeper serve` on that database as a child process, and
/// times every metric for a year (day resolution; cohorts by month) and every dashboard page, each asked
/// `--repeats` times over loopback HTTP: the first answer is a fresh server's (the median of `--fresh-servers`
/// servers started one after another, so one cold read does not decide it), the later ones are what a team sees,
/// and the resident memory is the first server's alone (not the storing's). Ends with the slowest later answer
/// against the target (200 ms).
struct MetricsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics-bench",
        abstract: "Time every metric query and dashboard page over a stored synthetic population.")

    @Option(help: "Subscribers to store (skipped when the database already holds them).") var subscribers = 100_000
    @Option(help: "Months of history.") var months = 12
    @Option(help: "Random seed of the history.") var seed: UInt64 = 42
    @Option(help: "PostgreSQL URL (default: DATABASE_URL; without either, SQLite under --data).")
    var databaseURL: String?
    @Option(help: "Data folder (SQLite, and the simulator's files).") var data = "metrics-bench-data"
    @Option(help: "The server's cache budget in MiB.") var cacheMegabytes = 1_024
    @Option(help: "Writes at once while storing the history.") var concurrency = SyntheticHistory.storingConcurrency
    @Option(help: "Times each query and page is asked.") var repeats = 3
    @Option(help: "Fresh servers whose first answers are timed (PostgreSQL; the median counts).") var freshServers = 3
    @Option(help: "The target for every answer after the first, in milliseconds.") var targetMilliseconds = 200.0
    @Option(help: "Customers enrolled in an experiment whose results are timed too (0: none).") var enrolments = 0
    @Flag(help: "Print the results as JSON.") var json = false

    func validate() throws {
        guard subscribers >= 1 else { throw ValidationError("--subscribers is \(subscribers); it must be at least 1") }
        guard (1...120).contains(months) else { throw ValidationError("--months is \(months); it must be 1–120") }
        guard (1...64).contains(concurrency) else {
            throw ValidationError("--concurrency is \(concurrency); it must be 1–64")
        }
        guard (2...20).contains(repeats) else { throw ValidationError("--repeats is \(repeats); it must be 2–20") }
        guard enrolments >= 0 else { throw ValidationError("--enrolments is \(enrolments); it must be at least 0") }
        guard (1...9).contains(freshServers) else {
            throw ValidationError("--fresh-servers is \(freshServers); it must be 1–9")
        }
    }

    /// One timed request.
    struct Timing {
        var name: String
        /// The first answer of each fresh server.
        var firsts: [Double]
        var later: [Double]
        /// The median of the fresh servers' first answers.
        var first: Double { firsts.sorted()[firsts.count / 2] }
        /// The last answer's points summed per series (metrics only), to show what was counted.
        var totals: [String: Double] = [:]
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = data
        configuration.hostname = "127.0.0.1"
        configuration.port = FreePort.find() ?? 0
        configuration.cacheMegabytes = cacheMegabytes
        configuration.databaseURL = databaseURL ?? ProcessInfo.processInfo.environment["DATABASE_URL"]
        do { try configuration.validate() } catch { throw CommandFailure("\(error)") }
        let pair = try await InProcessServer.start(configuration, clockStart: nil)
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let result: Result<([Timing], Int), any Error>
        var stopped = false
        var build: Double?
        do {
            try await store(into: pair.assembly)
            if enrolments > 0 {
                let project =
                    try configuration.projectScopes()[ServerConfiguration.demoBundleID]
                    ?? ProjectScope(ServerConfiguration.demoBundleID)
                build = try await BenchExperiment(
                    enrolments: enrolments, subscribers: subscribers,
                    history: SyntheticHistory(seed: seed, months: months, end: Date())
                ).prepare(base: pair.base, client: client, store: pair.assembly.store.experiments, project: project)
            }
            if let url = configuration.databaseURL {
                await pair.stop()
                stopped = true
                let folder = URL(fileURLWithPath: data).appendingPathComponent("fresh-server")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let serverConfiguration: [String: Any] = [
                    "databaseURL": url, "cacheMegabytes": cacheMegabytes,
                    "metricRollups": configuration.metrics.rollups,
                ]
                var timings: [Timing] = []
                var resident = 0
                // The first fresh server is asked every request `--repeats` times; each further one once (its
                // first answers, added to the first server's).
                for server in 0..<freshServers {
                    let fresh = try ChildServer.start(configuration: serverConfiguration, folder: folder)
                    defer { fresh.stop() }
                    let asked = try await time(base: fresh.base, client: client, repeats: server == 0 ? repeats : 1)
                    if server == 0 {
                        timings = asked
                        resident = (fresh.residentBytes ?? 0) >> 20
                    } else {
                        for index in timings.indices { timings[index].firsts += asked[index].firsts }
                    }
                }
                result = .success((timings, resident))
            } else {
                result = .success(
                    (try await time(base: pair.base, client: client, repeats: repeats), Self.residentMegabytes()))
            }
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        if !stopped { await pair.stop() }
        let (timings, resident) = try result.get()
        let met = report(
            timings, database: configuration.databaseURL == nil ? "sqlite" : "postgres", resident: resident,
            build: build)
        if !met { throw ExitCode(1) }
    }

    /// Stores the synthetic history unless its last customer is there already.
    func store(into assembly: ServerAssembly) async throws {
        let bundleID = ServerConfiguration.demoBundleID
        let project = try assembly.configuration.projectScopes()[bundleID] ?? ProjectScope(bundleID)
        _ = try await SyntheticHistory(seed: seed, months: months, end: Date()).store(
            subscribers, into: assembly.store, project: project, bundleID: bundleID,
            policy: assembly.configuration.transferPolicy, concurrency: concurrency, command: "metrics-bench")
        // Timed once the project's rollups are whole (the server builds them at start when they are not).
        let deadline = Date().addingTimeInterval(1_800)
        while try await !assembly.store.rollupsReady(in: project), Date() < deadline {
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Times every metric and every dashboard page, each asked `repeats` times.
    func time(base: String, client: HTTPClient, repeats: Int) async throws -> [Timing] {
        let now = Date()
        let from = AppleDateFormat.rfc3339(now.addingTimeInterval(-365 * 86_400))
        let to = AppleDateFormat.rfc3339(now)
        var requests: [(String, String)] = MetricName.allCases.map { name in
            let interval = name == .cohorts ? "month" : "day"
            return (
                "GET " + APIPath.metric(name.rawValue),
                APIPath.metric(name.rawValue, query: [("from", from), ("to", to), ("interval", interval)])
            )
        }
        requests += [
            ("dashboard overview", "/dashboard"), ("dashboard cohorts", "/dashboard/cohorts"),
            ("dashboard subscriber", "/dashboard/subscribers?id=\(SyntheticHistory.customerID(1))"),
            ("dashboard notifications", "/dashboard/notifications"), ("dashboard webhooks", "/dashboard/webhooks"),
        ]
        if enrolments > 0 { requests.append(("GET experiment results", BenchExperiment.resultsPath)) }
        let cookie = try await signIn(base: base, client: client)
        var timings: [Timing] = []
        for (name, path) in requests {
            var seconds: [Double] = []
            var body = ByteBuffer()
            for _ in 0..<repeats {
                var request = HTTPClientRequest(url: base + path)
                if path.hasPrefix("/dashboard") {
                    request.headers.add(name: "Cookie", value: cookie)
                } else {
                    request.headers.add(name: "Authorization", value: "Bearer \(ServerConfiguration.demoSecretKey)")
                }
                let clock = ContinuousClock()
                let began = clock.now
                let response = try await client.execute(request, timeout: .seconds(600))
                body = try await response.body.collect(upTo: 1 << 26)
                let took = clock.now - began
                guard response.status == .ok else {
                    throw CommandFailure("\(name) answered \(response.status.code)")
                }
                seconds.append(Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
            }
            timings.append(
                Timing(
                    name: name, firsts: [seconds[0]], later: Array(seconds.dropFirst()),
                    totals: path.hasPrefix(APIPath.metric("")) ? Self.totals(body) : [:]))
        }
        return timings
    }

    /// A metric answer's points summed per series.
    static func totals(_ body: ByteBuffer) -> [String: Double] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let series = object["series"] as? [[String: Any]]
        else { return [:] }
        var totals: [String: Double] = [:]
        for entry in series {
            let points = entry["points"] as? [[String: Any]] ?? []
            totals[entry["key"] as? String ?? ""] = points.reduce(0) { $0 + (($1["value"] as? Double) ?? 0) }
        }
        return totals
    }

    /// Signs in to the dashboard with the demo's secret key; returns the session cookie.
    func signIn(base: String, client: HTTPClient) async throws -> String {
        // The form first: its CSRF token must come back with the cookie it was set with.
        let form = try await client.execute(HTTPClientRequest(url: base + "/dashboard/login"), timeout: .seconds(30))
        let page = String(buffer: try await form.body.collect(upTo: 1 << 20))
        guard let formCookie = form.headers.first(name: "Set-Cookie")?.split(separator: ";").first,
            let token = page.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64)
        else {
            throw CommandFailure("the dashboard sign-in form has no CSRF token (status \(form.status.code))")
        }
        var request = HTTPClientRequest(url: base + "/dashboard/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: String(formCookie))
        request.body = .bytes(ByteBuffer(string: "csrf=\(token)&key=\(ServerConfiguration.demoSecretKey)"))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard let cookie = response.headers.first(name: "Set-Cookie")?.split(separator: ";").first else {
            throw CommandFailure("the dashboard sign-in set no cookie (status \(response.status.code))")
        }
        return String(cookie)
    }

    /// Prints the timings (and `build`, the seconds the experiment's first results read took); returns whether
    /// the target was met.
    func report(_ timings: [Timing], database: String, resident rss: Int, build: Double?) -> Bool {
        let slowest = timings.map { ($0.later.max() ?? 0, $0.name) }.max { $0.0 < $1.0 }
        let met = (slowest?.0 ?? 0) * 1_000 < targetMilliseconds
        if json {
            let object: [String: Any] = [
                "subscribers": subscribers, "months": months, "seed": seed,
                "database": database,
                "timings": timings.map {
                    [
                        "name": $0.name, "first_ms": $0.first * 1_000, "firsts_ms": $0.firsts.map { $0 * 1_000 },
                        "later_ms": $0.later.map { $0 * 1_000 },
                        "totals": $0.totals,
                    ]
                },
                "slowest_later_ms": (slowest?.0 ?? 0) * 1_000, "target_ms": targetMilliseconds, "met": met,
                "resident_megabytes": rss, "enrolments": enrolments,
                "experiment_build_seconds": build ?? NSNull(),
            ]
            let text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            FileHandleOutput.standardOutput(String(decoding: text, as: UTF8.self))
            return met
        }
        var lines = timings.map { timing in
            "  " + timing.name.padding(toLength: 36, withPad: " ", startingAt: 0)
                + String(format: " first %8.1f ms   later ", timing.first * 1_000)
                + timing.later.map { String(format: "%.1f", $0 * 1_000) }.joined(separator: ", ") + " ms"
                + (timing.firsts.count > 1
                    ? "   firsts " + timing.firsts.map { String(format: "%.1f", $0 * 1_000) }.joined(separator: ", ")
                    : "")
        }
        lines.insert(
            "metrics-bench: \(subscribers) subscribers, \(months) months, \(database); answers over loopback HTTP:",
            at: 0)
        if enrolments > 0 {
            lines.append(
                "metrics-bench: \(enrolments) enrolments; the experiment's first results read (building its rollup) "
                    + (build.map { String(format: "took %.1f s", $0) } ?? "was made in an earlier run"))
        }
        lines.append(
            String(
                format: "metrics-bench: slowest later answer %.1f ms (%@); target < %.0f ms: %@; resident %d MiB",
                (slowest?.0 ?? 0) * 1_000, (slowest?.1 ?? "-") as NSString, targetMilliseconds,
                met ? "met" : "NOT met", rss))
        // One line for scripts (scripts/metrics-check compares two sizes).
        lines.append(
            String(
                format: "metrics-bench-summary: slowest_later_ms=%.3f slowest_first_ms=%.3f resident_mb=%d",
                (slowest?.0 ?? 0) * 1_000, (timings.map(\.first).max() ?? 0) * 1_000, rss))
        FileHandleOutput.standardOutput(lines.joined(separator: "\n"))
        return met
    }

    /// This process's resident memory in MiB (Linux; 0 elsewhere).
    static func residentMegabytes() -> Int { (ProcessCPU(pid: getpid()).residentBytes() ?? 0) >> 20 }
}
