import AppStoreSimulator
import Foundation
import StoreKeeperAPI

/// Acts out a ``Population`` on a running server whose in-process simulator is Apple on a manual clock: each
/// simulated day it moves the clock to the day's start, waits until every notification then due was delivered
/// (and so committed by the server), and performs the customers' actions through the simulator's control API —
/// a purchase also posts its signed transaction to the server, as an app does, so the subscriber carries the
/// customer's id.
struct PopulationDriver {
    /// The simulator's control API (no key).
    let simulator: JSONCaller
    /// The server's API, with the app's public key.
    let server: JSONCaller
    let bundleID: String
    /// Customers acting at once.
    let concurrency: Int
    /// Seconds in a simulated day.
    let secondsPerDay: Double
    /// Each customer's id (``Population/customerID(_:)``): their App Store account and app user id.
    let customerIDs: @Sendable (Int) -> String
    /// Where each customer buys (``Population/storefront(_:)``).
    var storefronts: @Sendable (Int) -> String = { _ in "USA" }
    /// The experiment the run simulates: on each customer's first day they ask for offerings, and so are enrolled
    /// then, before the population decides their trial; they are shown the same variant when they subscribe.
    /// `nil`: none.
    var experiment: SimulatedExperiment?

    /// What a run did.
    struct Tally {
        /// Actions done, by ``PopulationAction/kind``.
        var actions: [String: Int] = [:]
        /// Actions refused, with what was said (the first 20).
        var failures: [String] = []
        var failureCount = 0
    }

    /// Runs every day of `population`.
    /// - Parameters:
    ///   - population: The customers.
    ///   - progress: Told after each day.
    /// - Returns: What was done.
    func run(_ population: inout Population, progress: ProgressLine) async throws -> Tally {
        var tally = Tally()
        var originals: [Int: String] = [:]
        var variants: [Int: String] = [:]
        let days = population.parameters.days
        for day in 0..<days {
            if day > 0 { try await advance(seconds: secondsPerDay) }
            try await waitForDeliveries()
            if let experiment {
                let starting = population.customers(startingOn: day)
                let assigned = try await experiment.assign(starting.map(customerIDs), concurrency: concurrency)
                for index in starting { variants[index] = assigned[customerIDs(index)] }
                population.experiment?.treatment.formUnion(starting.filter { variants[$0] == "treatment" })
            }
            let actions = population.actions(onDay: day)
            let byCustomer = Dictionary(grouping: actions, by: \.customer)
            let outcomes = await perform(byCustomer, originals: originals, variants: variants)
            for outcome in outcomes {
                if let original = outcome.original { originals[outcome.customer] = original }
                for kind in outcome.done { tally.actions[kind, default: 0] += 1 }
                for failure in outcome.failures {
                    tally.failureCount += 1
                    if tally.failures.count < 20 { tally.failures.append("day \(day): \(failure)") }
                }
            }
            let paying = population.phases["paying"] ?? 0
            progress.advance(detail: ", \(paying) paying")
        }
        try await advance(seconds: secondsPerDay)
        try await waitForDeliveries()
        return tally
    }

    struct Outcome: Sendable {
        var customer: Int
        var original: String?
        var done: [String] = []
        var failures: [String] = []
    }

    /// Each customer's actions in order; customers side by side, `concurrency` at a time.
    func perform(_ byCustomer: [Int: [PopulationAction]], originals: [Int: String], variants: [Int: String]) async
        -> [Outcome]
    {
        let customers = byCustomer.keys.sorted()
        var outcomes: [Outcome] = []
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            func startNext() {
                guard next < customers.count else { return }
                let customer = customers[next]
                next += 1
                let actions = byCustomer[customer] ?? []
                let original = originals[customer]
                let variant = variants[customer]
                group.addTask { await act(customer, actions, original: original, variant: variant) }
            }
            for _ in 0..<concurrency { startNext() }
            for await outcome in group {
                outcomes.append(outcome)
                startNext()
            }
        }
        return outcomes
    }

    func act(_ customer: Int, _ actions: [PopulationAction], original: String?, variant: String?) async -> Outcome {
        var outcome = Outcome(customer: customer, original: original)
        for action in actions {
            do {
                try await perform(action, outcome: &outcome, variant: variant)
                outcome.done.append(action.kind)
            } catch {
                outcome.failures.append("customer \(customer) \(action.kind): \(error)")
            }
        }
        return outcome
    }

    func perform(_ action: PopulationAction, outcome: inout Outcome, variant: String?) async throws {
        if case .subscribe(_, let productID, let trial) = action {
            return try await subscribe(&outcome, productID: productID, trial: trial, variant: variant)
        }
        guard let original = outcome.original else {
            throw JSONCaller.Failure(
                call: action.kind, status: 0, code: .notSubscribed, message: "the customer never subscribed")
        }
        let subscription = "/simulator/v1/subscriptions/" + APIPath.segment(original)
        switch action {
        case .subscribe:
            break
        case .turnOffAutoRenew:
            try await simulator.call("POST", subscription + "/auto-renew", ["enabled": false])
        case .failNextRenewal:
            try await simulator.call("POST", subscription + "/fail-next-renewal", [:])
        case .recoverBilling:
            try await simulator.call("POST", subscription + "/recover", [:])
        case .refundLatest:
            let state = try await simulator.call("GET", subscription)
            guard let latest = state["latestTransactionId"] as? String else {
                throw JSONCaller.Failure(
                    call: "GET \(subscription)", status: 200, code: .noLatestTransaction,
                    message: "the subscription names no latest transaction")
            }
            try await simulator.call("POST", "/simulator/v1/transactions/\(APIPath.segment(latest))/refund", [:])
        case .upgrade(_, let productID):
            try await simulator.call("POST", subscription + "/change-plan", ["productID": productID])
        }
    }

    /// Buys in the simulator, then posts the signed transaction to the server under the customer's id. With an
    /// experiment, the paywall first: it must show `variant`, the one the customer was enrolled in.
    func subscribe(_ outcome: inout Outcome, productID: String, trial: Bool, variant: String?) async throws {
        let customerID = customerIDs(outcome.customer)
        if let experiment {
            let answer = try await server.call("GET", APIPath.subscriberOfferings(customerID))
            let shown = (answer["experiment"] as? [String: Any])?["variant"] as? String
            guard let expected = variant, shown == expected else {
                throw JSONCaller.Failure(
                    call: "GET \(APIPath.subscriberOfferings(customerID))", status: 200, code: .unexpectedVariant,
                    message:
                        "shown \(shown ?? "no variant") of \(experiment.identifier), expected \(variant ?? "none")")
            }
        }
        var body: [String: Any] = [
            "bundleID": bundleID, "productID": productID, "customerID": customerID,
            "storefront": storefronts(outcome.customer),
        ]
        if trial { body["offer"] = "introductory" }
        let bought = try await simulator.call("POST", "/simulator/v1/purchases", body)
        guard let original = bought["originalTransactionId"] as? String,
            let signed = bought["signedTransaction"] as? String
        else {
            throw JSONCaller.Failure(
                call: "POST /simulator/v1/purchases", status: 201, code: .unexpectedAnswer,
                message: "no originalTransactionId and signedTransaction")
        }
        outcome.original = original
        try await server.call(
            "POST", APIPath.transactions, ["app_user_id": customerID, "signed_transaction": signed])
    }

    /// Moves the simulator's (and so the server's) clock on.
    func advance(seconds: Double) async throws {
        try await simulator.call("POST", "/simulator/v1/clock/advance", ["seconds": seconds])
    }

    /// Waits until no notification delivery is due (each due one was sent and answered).
    func waitForDeliveries() async throws {
        while true {
            let backlog = try await simulator.call("GET", "/simulator/v1/deliveries")
            if (backlog["due"] as? Int ?? 0) == 0 { return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
