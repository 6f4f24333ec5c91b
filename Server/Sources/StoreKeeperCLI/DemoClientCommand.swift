import ArgumentParser
import Foundation
import StoreKeeperKit
import StoreKeeperServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `storekeeper demo-client`: plays an app's life with StoreKeeperKit against a running `storekeeper serve` and its
/// in-process App Store — first launch, paywall, purchase, relaunch from the cache, a renewal while the app was
/// closed, a refund — printing what the user would see at each step.
struct DemoClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-client",
        abstract: "Play an app's subscription life with the client SDK against a running server.",
        discussion: """
            The server must be `storekeeper serve` with its demo app; with `--simulator-clock manual` the demo \
            also moves the App Store's clock a month on to show a renewal made while the app was closed (on the \
            system clock it stops before that step).
            """)

    @Option(help: "The running server (its in-process simulator answers on the same port).")
    var server = "http://127.0.0.1:8080"
    @Option(help: "The customer's Apple Account in the simulator (default: a new one).") var customer: String?
    @Option(help: "The app's public key.") var key = "pk_demo_storekeeper_public"
    @Option(help: "The product to buy.") var product = "premium.monthly"
    @Option(help: "How long the paywall waits for the server's offerings, in seconds.")
    var offeringsTimeout: Double = 5

    func run() async throws {
        guard let base = URL(string: server), base.host != nil else {
            throw ValidationError("--server \"\(server)\" is not an absolute http URL")
        }
        let customer = customer ?? "demo-\(UUID().uuidString.prefix(8).lowercased())"
        let store = SimulatorStore(simulatorURL: base, bundleID: ServerConfiguration.demoBundleID, customerID: customer)
        let persistence = InMemoryPersistence()
        let clock = DemoDeviceClock()
        var configuration = StoreKeeper.Configuration(serverURL: base, apiKey: key)
        configuration.offeringsTimeout = offeringsTimeout
        func launch() -> StoreKeeper {
            StoreKeeper(configuration: configuration, store: store, persistence: persistence, clock: clock)
        }
        let say = { (line: String) in print(line) }

        say("1. First launch (customer \(customer))")
        var app = launch()
        say("   \(Self.describe(try await app.start()))")
        // The paywall is the server's current offering: change it there and this screen changes, no release.
        let paywall = try await app.offerings().current
        say("   Paywall (offering \(paywall?.identifier ?? "none") from the server):")
        for package in paywall?.packages ?? [] {
            say("     \(package.product.id): \(package.product.priceText)")
        }

        say("2. The user buys \(product)")
        let bought =
            if let package = paywall?.packages.first(where: { $0.product.id == product }) {
                try await app.purchase(package: package)
            } else {
                try await app.purchase(productID: product)
            }
        switch bought {
        case .purchased(let info): say("   \(Self.describe(info))")
        case .userCancelled: say("   cancelled")
        case .pending: say("   waiting for approval")
        }
        await app.stop()

        say("3. Relaunch")
        app = launch()
        say("   Served from the cache: \(Self.describe(try await app.start()))")
        await app.stop()

        say("4. A month passes with the app closed")
        guard let month = try await Self.advanceMonth(base) else {
            say("   (the server's App Store runs on the system clock: start it with --simulator-clock manual)")
            return
        }
        clock.pass(month)
        app = launch()
        let renewed = try await app.start()
        say("   Next launch: \(Self.describe(renewed))")

        say("5. Apple refunds the purchase")
        guard let transaction = renewed.subscriber?.subscriptions.first?.latestTransactionID else {
            throw CommandFailure("the server shows no subscription to refund")
        }
        // A minute later: Apple refunds after the purchase, never at its instant.
        try await Self.control(base, "POST", "clock/advance", ["seconds": 60])
        clock.pass(60)
        try await Self.control(base, "POST", "transactions/\(transaction)/refund", ["reason": 1])
        say("   Next refresh: \(Self.describe(try await app.customerInfo(fetchPolicy: .fetchCurrent)))")
        await app.stop()
    }

    /// What the user sees: the access, until when, and how it is known.
    static func describe(_ info: CustomerInfo) -> String {
        let active = info.activeEntitlements.values.sorted { $0.identifier < $1.identifier }
        let how = "[\(info.verification.rawValue)]"
        guard !active.isEmpty else {
            return info.verification == .cannotVerify
                ? "Cannot verify purchases; connect to the internet \(how)" : "No subscription: the paywall \(how)"
        }
        let format = ISO8601DateFormatter()
        return active.map { entitlement in
            let until = entitlement.expiresAt.map { " until \(format.string(from: $0))" } ?? ""
            let renews = entitlement.willRenew ? ", renews" : ", does not renew"
            return
                "\(entitlement.identifier) unlocked by \(entitlement.productID)\(until) (\(entitlement.periodType)\(renews))"
        }.joined(separator: "; ") + " \(how)"
    }

    /// Moves the simulator's manual clock a month and a minute on; `nil` when it runs on the system clock.
    static func advanceMonth(_ base: URL) async throws -> TimeInterval? {
        let clock = try await control(base, "GET", "clock", nil)
        guard clock["manual"] as? Bool == true, let before = (clock["now"] as? String).flatMap(parse) else {
            return nil
        }
        let after = try await control(base, "POST", "clock/advance", ["months": 1.02])
        guard let now = (after["now"] as? String).flatMap(parse) else { return nil }
        return now.timeIntervalSince(before)
    }

    static func parse(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @discardableResult
    static func control(_ base: URL, _ method: String, _ path: String, _ body: [String: Any]?) async throws
        -> [String: Any]
    {
        var request = URLRequest(url: base.appendingPathComponent("simulator/v1/" + path))
        request.httpMethod = method
        if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
        let (status, data): (Int, Data) = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }.resume()
        }
        guard (200..<300).contains(status) else {
            throw CommandFailure(
                "\(method) /simulator/v1/\(path) answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))"
            )
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}

/// The device's clocks in the demo: the system's, moved on by the simulated time the demo skips, as a phone left
/// for a month would be.
final class DemoDeviceClock: DeviceClock, @unchecked Sendable {
    let system = SystemDeviceClock()
    let lock = NSLock()
    var skipped: TimeInterval = 0

    var now: Date { system.now.addingTimeInterval(lock.withLock { skipped }) }
    var uptime: TimeInterval { system.uptime + lock.withLock { skipped } }
    var bootID: String { system.bootID }

    func pass(_ seconds: TimeInterval) { lock.withLock { skipped += seconds } }
}
