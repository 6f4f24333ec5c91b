import AppStoreClient
import AppStoreSimulator
import AppStoreSimulatorServer
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StoreKeeperServer

/// `storekeeper simulator`: run the App Store simulator, or drive a running one with the control verbs.
struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator",
        abstract: "Run the App Store simulator, or drive a running one.",
        subcommands: [
            SimulatorServeCommand.self, SimulatorPurchaseCommand.self, SimulatorAdvanceCommand.self,
            SimulatorVerbCommand.self, SimulatorNotificationsCommand.self, SimulatorReceiptCommand.self,
        ],
        defaultSubcommand: SimulatorServeCommand.self
    )
}

/// `storekeeper simulator [serve] [--port N] …`
struct SimulatorServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the simulator: Apple's endpoints and the control API on one port.")

    @Option(help: "Address to listen on.") var hostname = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8090
    @Option(help: "Where the simulator keeps its certificate authorities and its world (kept across restarts).")
    var data = "data/simulator"
    @Option(help: "Seed for ids and UUIDs.") var seed: UInt64 = 1
    @Option(help: "Sandbox rate: 3m, 5m, 15m, 30m, 1h or real.") var rate = "5m"
    @Option(help: "system (real time, accelerated periods) or manual (moved by POST /simulator/v1/clock/advance).")
    var clock = "system"
    @Option(
        help: ArgumentHelp(
            "With --clock manual and no saved world: the simulated time to start at (ISO 8601, e.g. 2026-01-01T00:00:00Z).",
            valueName: "date"))
    var clockStart: String?
    @Option(help: "Renewals before the sandbox stops a subscription.") var maxRenewals = 12
    @Option(help: "Sandbox or Production: the environment its evidence carries and verifyReceipt answers for.")
    var environment = "Sandbox"
    @Flag(inversion: .prefixedNo, help: "Create the demo app com.example.storekeeper.demo.") var demo = true
    @Option(help: "Where the demo app's V2 notifications go.") var notificationURL: String?

    func validate() throws {
        guard SandboxRate(rawValue: rate) != nil else {
            throw ValidationError("--rate \(rate) must be one of 3m, 5m, 15m, 30m, 1h, real")
        }
        guard ["system", "manual"].contains(clock) else { throw ValidationError("--clock must be system or manual") }
        guard ["Sandbox", "Production"].contains(environment) else {
            throw ValidationError("--environment \"\(environment)\" is not Sandbox or Production")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is out of range") }
        if let clockStart {
            guard clock == "manual" else { throw ValidationError("--clock-start needs --clock manual") }
            guard ISO8601DateFormatter().date(from: clockStart) != nil else {
                throw ValidationError(
                    "--clock-start \"\(clockStart)\" is not an ISO 8601 date like 2026-01-01T00:00:00Z")
            }
        }
    }

    func run() async throws {
        var configuration = AppStoreSimulator.Configuration()
        configuration.seed = seed
        configuration.rate = SandboxRate(rawValue: rate)!
        configuration.maximumRenewals = maxRenewals
        configuration.environment = environment
        // The world saved by the last run, if any: the simulator continues it (customers, ids, history, clock).
        let worldFile = SimulatorWorldFile(directory: data)
        let saved = try worldFile.load()
        let start = saved?.clock ?? clockStart.flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
        let manualClock = clock == "manual" ? ManualClock(start: start) : nil
        let pkiDirectory = URL(fileURLWithPath: data).appendingPathComponent("pki")
        let pki = try SimulatorPKI.loadOrCreate(in: pkiDirectory)
        let simulator = AppStoreSimulator(configuration: configuration, pki: pki, clock: manualClock ?? SystemClock())
        if let saved { try await simulator.restore(saved) }
        if demo {
            var app = await simulator.app(SimulatedApp.demo().bundleID) ?? SimulatedApp.demo()
            if let notificationURL { app.notificationURL = notificationURL }
            try await simulator.createApp(app)
        }
        let host = hostname
        let rateName = configuration.rate.rawValue
        let environmentName = configuration.environment
        let hasDemo = demo
        let continued = saved.map { "  world:           continued from \(worldFile.path) (\($0.summary))" }
        let application = SimulatorApplication.build(
            simulator: simulator, manualClock: manualClock, hostname: hostname, port: port
        ) { bound in
            let base = "http://\(host):\(bound)"
            var lines = [
                "StoreKeeper App Store simulator listening on \(base)  (\(environmentName), rate \(rateName), clock \(manualClock == nil ? "system" : "manual"))",
                "  verifyReceipt:   \(base)/verifyReceipt  and  \(base)/sandbox/verifyReceipt",
                "  Server API:      \(base)/inApps/…",
                "  control API:     \(base)/simulator/v1/…",
                "  trust its roots: \(pkiDirectory.appendingPathComponent("jws-root.der").path), \(pkiDirectory.appendingPathComponent("receipt-root.der").path)",
            ]
            if let continued { lines.append(continued) }
            if hasDemo {
                lines.append("  demo app:        com.example.storekeeper.demo (shared secret demo-shared-secret); try:")
                lines.append(
                    "    curl -s -X POST \(base)/simulator/v1/purchases -d '{\"bundleID\":\"com.example.storekeeper.demo\",\"productID\":\"premium.monthly\",\"customerID\":\"alice\"}'"
                )
            }
            FileHandleOutput.standardOutput(lines.joined(separator: "\n"))
        }
        let httpClient = OutboundHTTPClient.make()
        let delivery = NotificationDeliveryService(simulator: simulator, httpClient: httpClient)
        var logger = Logger(label: "storekeeper.simulator")
        logger.logLevel = .warning
        let keeper = SimulatorWorldKeeper(simulator: simulator, file: worldFile, logger: logger)
        let group = ServiceGroup(
            services: [application, delivery, keeper], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await group.run()
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}

/// Options shared by the verbs that talk to a running simulator.
struct SimulatorConnection: ParsableArguments {
    @Option(help: "The running simulator's base URL.") var url = "http://127.0.0.1:8090"

    func call(_ method: String, _ path: String, body: [String: Any]? = nil) async throws -> String {
        var request = HTTPClientRequest(url: url + path)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        } catch {
            throw CommandFailure("cannot reach the simulator at \(url): \(error)")
        }
        let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
        guard (200..<300).contains(Int(response.status.code)) else {
            FileHandleOutput.standardError("storekeeper simulator: HTTP \(response.status.code): \(text)")
            throw ExitCode(1)
        }
        return text
    }
}

/// `storekeeper simulator purchase --bundle B --product P --customer C [--offer introductory|promotional|offerCode --offer-id X]
/// [--offer-jws JWS] [--billing-plan MONTHLY] [--replacing ORIGINAL_ID]`
struct SimulatorPurchaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "purchase", abstract: "Buy a product.")
    @OptionGroup var connection: SimulatorConnection
    @Option var bundle = ServerConfiguration.demoBundleID
    @Option var product: String
    @Option var customer: String
    @Option(help: "introductory, promotional or offerCode.") var offer: String?
    @Option(name: .customLong("offer-id")) var offerID: String?
    @Option(
        name: .customLong("offer-jws"),
        help: "A promotional offer's signature as a compact JWS (compact_jws from the server's /v1/offers/sign).")
    var offerJWS: String?
    @Flag(name: .customLong("family-shared")) var familyShared = false
    @Option(
        name: .customLong("billing-plan"),
        help: "BILLED_UPFRONT (default) or MONTHLY: a yearly product's monthly plan with a 12-month commitment.")
    var billingPlan: String?
    @Option(
        help:
            "The original transaction id of a subscription in another group this purchase replaces (a switch between a standalone subscription and a bundle)."
    )
    var replacing: String?

    func run() async throws {
        var body: [String: Any] = [
            "bundleID": bundle, "productID": product, "customerID": customer, "familyShared": familyShared,
        ]
        if let offer { body["offer"] = offer }
        if let offerID { body["offerID"] = offerID }
        if let offerJWS { body["offerJWS"] = offerJWS }
        if let billingPlan { body["billingPlan"] = billingPlan }
        if let replacing { body["replacing"] = replacing }
        FileHandleOutput.standardOutput(try await connection.call("POST", "/simulator/v1/purchases", body: body))
    }
}

/// `storekeeper simulator advance [--months M] [--seconds S]`
struct SimulatorAdvanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "advance", abstract: "Move a manual clock forward.")
    @OptionGroup var connection: SimulatorConnection
    @Option var months: Double?
    @Option var seconds: Double?

    func run() async throws {
        FileHandleOutput.standardOutput(
            try await connection.call(
                "POST", "/simulator/v1/clock/advance", body: ["months": months ?? 0, "seconds": seconds ?? 0]))
    }
}

/// `storekeeper simulator do VERB ID [--json BODY]`: the subscription and transaction verbs.
struct SimulatorVerbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "do",
        abstract: "Apply a verb: auto-renew, fail-next-renewal, recover, change-plan, extend, price-increase-response "
            + "(subscriptions); refund, reverse-refund, revoke-family, consumption-request (transactions).")
    @OptionGroup var connection: SimulatorConnection
    @Argument var verb: String
    @Argument var id: String
    @Option(help: "JSON body, e.g. '{\"enabled\":false}' or '{\"productID\":\"basic.monthly\"}'.") var json = "{}"

    func run() async throws {
        let subscriptionVerbs = [
            "auto-renew", "fail-next-renewal", "recover", "change-plan", "extend", "price-increase-response",
        ]
        let transactionVerbs = ["refund", "reverse-refund", "revoke-family", "consumption-request"]
        let kind: String
        if subscriptionVerbs.contains(verb) {
            kind = "subscriptions"
        } else if transactionVerbs.contains(verb) {
            kind = "transactions"
        } else {
            throw ValidationError("unknown verb \(verb)")
        }
        guard let body = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw ValidationError("--json must be a JSON object")
        }
        FileHandleOutput.standardOutput(
            try await connection.call("POST", "/simulator/v1/\(kind)/\(id)/\(verb)", body: body))
    }
}

/// `storekeeper simulator notifications [--bundle B]`
struct SimulatorNotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "notifications", abstract: "List sent notifications.")
    @OptionGroup var connection: SimulatorConnection
    @Option var bundle = ServerConfiguration.demoBundleID

    func run() async throws {
        FileHandleOutput.standardOutput(try await connection.call("GET", "/simulator/v1/apps/\(bundle)/notifications"))
    }
}

/// `storekeeper simulator receipt --customer C [--bundle B]`
struct SimulatorReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt", abstract: "Print a customer's current app receipt.")
    @OptionGroup var connection: SimulatorConnection
    @Option var bundle = ServerConfiguration.demoBundleID
    @Option var customer: String

    func run() async throws {
        let text = try await connection.call(
            "GET",
            "/simulator/v1/apps/\(bundle)/receipt?customerID=\(customer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? customer)"
        )
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        FileHandleOutput.standardOutput(object?["receipt"] as? String ?? text)
    }
}
