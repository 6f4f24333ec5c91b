import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import StoreKeeperServer

/// `storekeeper simulate --subscribers N --months M --seed S …`: a believable population, for the dashboard and
/// the metrics, acted out through the App Store simulator and a StoreKeeper server — a running one (`--server`,
/// whose in-process simulator runs on the manual clock with real-length periods) or its own in-process pair over
/// a new data folder, whose history ends today, so `storekeeper serve` on that folder shows it.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Act out a population of subscribers through the App Store simulator and a server.",
        discussion: """
            Without --server: a new server with its in-process simulator (Production, real-length periods, the
            manual clock starting --months before today) over --data, stopped at the end; then
            `storekeeper serve` there shows the population (dashboard: /dashboard, key sk_demo_storekeeper_secret).
            With --server: a running `storekeeper serve --simulator-clock manual --simulator-rate real`; its clock
            moves on by --months.
            """)

    @Option(help: "Subscribers (each subscribes on a day spread over the run).") var subscribers = 1_000
    @Option(help: "Months to simulate (of 30.4375 days).") var months = 12
    @Option(help: "Random seed: the same seed and rates make the same population.") var seed: UInt64 = 1
    @Option(help: "Share of new subscribers starting with the free trial.") var trialShare = 0.5
    @Option(help: "Share of trials converting to a paid period.") var trialConversion = 0.4
    @Option(help: "Share of paying subscribers turning auto-renew off, per month.") var monthlyChurn = 0.08
    @Option(help: "Share of paying subscribers whose next renewal fails to bill, per month.") var billingFailure = 0.03
    @Option(help: "Share of failed renewals that billing recovers.") var billingRecovery = 0.5
    @Option(help: "Share of paying subscribers refunded, per month.") var refund = 0.01
    @Option(help: "Share of basic-plan subscribers upgrading to premium, per month.") var upgrade = 0.02
    @Option(help: "A running server (its in-process simulator on the manual clock, real-length periods).")
    var server: String?
    @Option(help: "Without --server: the new data folder of the in-process pair.") var data = "data"
    @Option(help: "Customers acting at once.") var concurrency = 16
    @Flag(
        help:
            "Run a 50/50 experiment on offerings: customers in its treatment convert from the trial at --treatment-trial-conversion."
    )
    var experiment = false
    @Option(help: "With --experiment: the treatment's share of trials converting.") var treatmentTrialConversion = 0.6
    @Option(help: "Share of customers buying in Germany (prices with 19 % VAT); the rest buy in the United States.")
    var vatShare = 0.3
    @Flag(help: "Print the summary as JSON.") var json = false

    static let bundleID = ServerConfiguration.demoBundleID

    var parameters: PopulationParameters {
        var parameters = PopulationParameters()
        parameters.subscribers = subscribers
        parameters.months = months
        parameters.seed = seed
        parameters.trialShare = trialShare
        parameters.trialConversion = trialConversion
        parameters.monthlyChurn = monthlyChurn
        parameters.billingFailure = billingFailure
        parameters.billingRecovery = billingRecovery
        parameters.refund = refund
        parameters.upgrade = upgrade
        parameters.vatShare = vatShare
        return parameters
    }

    func validate() throws {
        do { try parameters.validate() } catch let error as SimulatorError {
            throw ValidationError("--" + error.reason)
        }
        guard (0...1).contains(treatmentTrialConversion) else {
            throw ValidationError("--treatment-trial-conversion is \(treatmentTrialConversion); it must be from 0 to 1")
        }
        guard (1...256).contains(concurrency) else {
            throw ValidationError("--concurrency is \(concurrency); it must be from 1 to 256")
        }
    }

    func run() async throws {
        let began = Date()
        var population = Population(parameters)
        let pair = server == nil ? try await Self.startPair(data: data, days: parameters.days) : nil
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                connectionPool: .init(
                    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency * 2 + 4)))
        let base = server ?? pair?.base ?? ""
        let outcome: Result<(PopulationDriver.Tally, String, String, [String: Any]?), any Error>
        do {
            outcome = .success(try await drive(&population, base: base, client: client))
        } catch {
            outcome = .failure(error)
        }
        if let pair { await pair.stop() }
        try await client.shutdown()
        let (tally, start, end, results) = try outcome.get()
        report(
            tally, population: population, start: start, end: end, seconds: Date().timeIntervalSince(began),
            experiment: results)
        if tally.failureCount > 0 { throw ExitCode(1) }
    }

    func drive(_ population: inout Population, base: String, client: HTTPClient) async throws -> (
        PopulationDriver.Tally, String, String, [String: Any]?
    ) {
        let simulator = JSONCaller(base: base, client: client)
        let clock: [String: Any]
        do { clock = try await simulator.call("GET", "/simulator/v1/clock") } catch {
            throw CommandFailure("\(base) has no simulator to drive (\(error)): start it with `storekeeper serve`")
        }
        guard clock["manual"] as? Bool == true else {
            throw CommandFailure(
                "the simulator of \(base) runs on the system clock: start the server with --simulator-clock manual")
        }
        guard let secondsPerDay = clock["secondsPerDay"] as? Double, secondsPerDay == 86_400 else {
            throw CommandFailure(
                "the simulator of \(base) runs sandbox-length periods (a day is \(clock["secondsPerDay"] ?? "?") s): "
                    + "start the server with --simulator-rate real")
        }
        var driver = PopulationDriver(
            simulator: simulator,
            server: JSONCaller(base: base, client: client, bearer: ServerConfiguration.demoPublicKey),
            bundleID: Self.bundleID, concurrency: concurrency, secondsPerDay: secondsPerDay,
            customerIDs: { [population] in population.customerID($0) },
            storefronts: { [population] in population.storefront($0) })
        var simulated: SimulatedExperiment?
        if experiment {
            let run = SimulatedExperiment(
                identifier: "sim-\(seed)",
                server: JSONCaller(base: base, client: client, bearer: ServerConfiguration.demoSecretKey))
            try await run.start()
            population.experiment = ([], treatmentTrialConversion)
            driver.experiment = run
            simulated = run
        }
        let progress = ProgressLine(label: "simulating", unit: "days", total: population.parameters.days)
        let tally = try await driver.run(&population, progress: progress)
        progress.finish()
        let end = try await simulator.call("GET", "/simulator/v1/clock")["now"] as? String ?? "?"
        return (tally, clock["now"] as? String ?? "?", end, try await simulated?.results())
    }

    func report(
        _ tally: PopulationDriver.Tally, population: Population, start: String, end: String, seconds: Double,
        experiment results: [String: Any]?
    ) {
        if json {
            var object: [String: Any] = [
                "subscribers": subscribers, "months": months, "days": population.parameters.days, "seed": seed,
                "start": start, "end": end, "seconds": seconds, "actions": tally.actions,
                "failures": tally.failureCount, "phases": population.phases,
                "server": server ?? "in-process over \(data)",
            ]
            if let results { object["experiment"] = results }
            let text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            FileHandleOutput.standardOutput(String(decoding: text, as: UTF8.self))
        } else {
            let actions = tally.actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let phases = population.phases.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            var lines = [
                String(
                    format: "simulated %d subscribers over %d months (%d days, %@ to %@) in %.1f s", subscribers,
                    months, population.parameters.days, start, end, seconds),
                "  actions: " + actions.joined(separator: ", "),
                "  customers now: " + phases.joined(separator: ", "),
                "  failures: \(tally.failureCount)",
            ]
            lines += tally.failures.map { "    \($0)" }
            if let results {
                lines.append("  experiment \(results["identifier"] as? String ?? "?"):")
                lines += SimulatedExperiment.lines(results)
            }
            if server == nil {
                lines.append(
                    "  see it: storekeeper serve --data \(data) --simulator-rate real --simulator-environment Production, "
                        + "then /dashboard (key \(ServerConfiguration.demoSecretKey))")
            }
            FileHandleOutput.standardOutput(lines.joined(separator: "\n"))
        }
    }

    /// The in-process pair: a server over `data` (which must be new) with its simulator as Apple in Production,
    /// real-length periods, on a manual clock starting `days` before today's UTC midnight.
    static func startPair(data: String, days: Int) async throws -> InProcessServer {
        let folder = URL(fileURLWithPath: data)
        for existing in ["storekeeper.sqlite", "simulator/world.json"]
        where FileManager.default.fileExists(atPath: folder.appendingPathComponent(existing).path) {
            throw CommandFailure(
                "\(data)/\(existing) exists: simulate builds a new history, so give it a new --data folder (or drive a running server with --server)"
            )
        }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = data
        configuration.hostname = "127.0.0.1"
        configuration.port = FreePort.find() ?? 0
        configuration.simulator.clock = .manual
        configuration.simulator.rate = .real
        configuration.simulator.environment = .production
        do { try configuration.validate() } catch { throw CommandFailure("\(error)") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.startOfDay(for: Date()).addingTimeInterval(-Double(days) * 86_400)
        return try await InProcessServer.start(configuration, clockStart: start)
    }
}
