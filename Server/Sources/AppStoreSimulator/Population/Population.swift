import Foundation

/// A seeded population of customers of the demo app, deciding day by day what each does: when they subscribe
/// (spread evenly over the run, with the free trial or not, to the premium or the basic monthly plan), whether a
/// trial converts, and — while paying — whether they cancel, fail to bill, are refunded or upgrade, at the
/// monthly rates of ``PopulationParameters``.
///
/// It follows each customer's periods itself (a trial of 7 days, months of 30, as the simulator's production
/// rate), so it knows who is paying on each day without asking the store; the store does the renewing. A
/// driver calls ``actions(onDay:)`` for day 0, 1, 2, … after moving the store's clock to that day's start and
/// performs each customer's actions in order.
public struct Population: Sendable {
    /// The premium plan (level 1 of the group): most new subscribers, and the plan basic subscribers upgrade to.
    public static let premium = "premium.monthly"
    /// The basic plan (level 2).
    public static let basic = "basic.monthly"
    /// The share of new subscribers who choose premium.
    static let premiumShare = 0.7
    /// Days of the demo plans' free trial and of a month.
    static let trialDays = 7
    static let periodDays = 30

    /// Where one customer stands.
    enum Phase: Sendable, Hashable {
        case notYet
        /// In the free trial; `converts` decided at its start, `cancelDay` when it does not.
        case trial(converts: Bool, cancelDay: Int?)
        case paying
        /// Auto-renew is off: gone at the period's end.
        case leaving
        /// The next renewal will fail; `recovers` decided now.
        case failing(recovers: Bool)
        /// The renewal failed; billing recovers on `day`.
        case retrying(recoverDay: Int)
        case gone
    }

    struct Customer: Sendable, Hashable {
        var startDay: Int
        var productID = Population.premium
        /// The day the current period ends (a renewal is due).
        var periodEnd = 0
        var phase = Phase.notYet
    }

    /// The parameters.
    public let parameters: PopulationParameters
    /// An experiment the run simulates: which customers are in its treatment, and the trial conversion they have
    /// instead of ``PopulationParameters/trialConversion``. `nil`: none. A driver learns a customer's variant (from
    /// the server, which enrols them) on their first day, before ``actions(onDay:)`` decides their trial.
    public var experiment: (treatment: Set<Int>, trialConversion: Double)?
    var customers: [Customer]
    var random: SeededRandom
    let daily: (churn: Double, failure: Double, refund: Double, upgrade: Double)

    /// Makes the population: each customer's first day is drawn now.
    /// - Parameter parameters: Validated parameters.
    public init(_ parameters: PopulationParameters) {
        self.parameters = parameters
        var random = SeededRandom(seed: parameters.seed)
        let days = max(1, parameters.days)
        customers = (0..<parameters.subscribers).map { _ in
            Customer(startDay: Int.random(in: 0..<days, using: &random))
        }
        self.random = random
        // A monthly share p happens on a given day with 1 - (1 - p)^(1/30): over a 30-day period, p.
        func perDay(_ monthly: Double) -> Double { 1 - pow(1 - monthly, 1 / Double(Self.periodDays)) }
        daily = (
            perDay(parameters.monthlyChurn), perDay(parameters.billingFailure), perDay(parameters.refund),
            perDay(parameters.upgrade)
        )
    }

    /// The customers whose first day is `day`: who visit the paywall then (and subscribe).
    /// - Parameter day: Days since the run began.
    /// - Returns: Their indices, ascending.
    public func customers(startingOn day: Int) -> [Int] {
        customers.indices.filter { customers[$0].startDay == day }
    }

    /// The store's id for customer `index` (its App Store account and app user id).
    /// - Parameter index: The customer.
    /// - Returns: `sim-<seed>-<index>`.
    public func customerID(_ index: Int) -> String { "sim-\(parameters.seed)-\(index)" }

    /// Where customer `index` buys: `DEU` for the first ``PopulationParameters/vatShare`` of every hundred
    /// customers, `USA` for the rest (by index, so the population's draws stay the same).
    /// - Parameter index: The customer.
    public func storefront(_ index: Int) -> String {
        Double(index % 100) < parameters.vatShare * 100 ? "DEU" : "USA"
    }

    /// What customers do on `day`, grouped by customer (each customer's actions in order). Call once per day, in
    /// order: renewals due by the day's start are taken as done.
    /// - Parameter day: Days since the run began.
    /// - Returns: The actions.
    public mutating func actions(onDay day: Int) -> [PopulationAction] {
        var actions: [PopulationAction] = []
        for index in customers.indices {
            var customer = customers[index]
            step(&customer, index: index, day: day, into: &actions)
            customers[index] = customer
        }
        return actions
    }

    /// How many customers are in each phase now (`trial`, `paying`, `leaving`, `billing`, `gone`, `not_yet`).
    public var phases: [String: Int] {
        var counts: [String: Int] = [:]
        for customer in customers {
            let name =
                switch customer.phase {
                case .notYet: "not_yet"
                case .trial: "trial"
                case .paying: "paying"
                case .leaving: "leaving"
                case .failing, .retrying: "billing"
                case .gone: "gone"
                }
            counts[name, default: 0] += 1
        }
        return counts
    }

    mutating func step(_ customer: inout Customer, index: Int, day: Int, into actions: inout [PopulationAction]) {
        if case .notYet = customer.phase {
            guard customer.startDay == day else { return }
            subscribe(&customer, index: index, day: day, into: &actions)
        }
        renew(&customer, by: day)
        switch customer.phase {
        case .trial(let converts, let cancelDay) where cancelDay == day:
            actions.append(.turnOffAutoRenew(customer: index))
            customer.phase = .trial(converts: converts, cancelDay: nil)
        case .retrying(let recoverDay) where recoverDay == day:
            actions.append(.recoverBilling(customer: index))
            customer.phase = .paying
            customer.periodEnd = day + Self.periodDays
        case .paying where customer.startDay != day:
            decide(&customer, index: index, day: day, into: &actions)
        default:
            break
        }
    }

    mutating func subscribe(_ customer: inout Customer, index: Int, day: Int, into actions: inout [PopulationAction]) {
        customer.productID = Double.random(in: 0..<1, using: &random) < Self.premiumShare ? Self.premium : Self.basic
        let trial = Double.random(in: 0..<1, using: &random) < parameters.trialShare
        actions.append(.subscribe(customer: index, productID: customer.productID, trial: trial))
        if trial {
            let conversion =
                experiment.map { $0.treatment.contains(index) ? $0.trialConversion : parameters.trialConversion }
                ?? parameters.trialConversion
            let converts = Double.random(in: 0..<1, using: &random) < conversion
            let cancelDay = converts ? nil : day + Int.random(in: 0..<Self.trialDays, using: &random)
            customer.phase = .trial(converts: converts, cancelDay: cancelDay)
            customer.periodEnd = day + Self.trialDays
        } else {
            customer.phase = .paying
            customer.periodEnd = day + Self.periodDays
        }
    }

    /// Periods that ended by `day`: a trial converts or ends, a paid period renews, a cancelled one ends, a
    /// failing one fails (and is recovered later, or expires).
    mutating func renew(_ customer: inout Customer, by day: Int) {
        while customer.periodEnd <= day {
            switch customer.phase {
            case .trial(let converts, _):
                customer.phase = converts ? .paying : .gone
            case .paying:
                break
            case .leaving:
                customer.phase = .gone
            case .failing(let recovers):
                customer.phase =
                    recovers
                    ? .retrying(recoverDay: customer.periodEnd + Int.random(in: 1...20, using: &random)) : .gone
            case .notYet, .retrying, .gone:
                return
            }
            guard case .paying = customer.phase else { return }
            customer.periodEnd += Self.periodDays
        }
    }

    /// A paying customer's day: at most one of cancel, a failing next renewal, a refund, an upgrade.
    mutating func decide(_ customer: inout Customer, index: Int, day: Int, into actions: inout [PopulationAction]) {
        var draw = Double.random(in: 0..<1, using: &random)
        if draw < daily.churn {
            actions.append(.turnOffAutoRenew(customer: index))
            customer.phase = .leaving
            return
        }
        draw -= daily.churn
        if draw < daily.failure {
            actions.append(.failNextRenewal(customer: index))
            customer.phase = .failing(recovers: Double.random(in: 0..<1, using: &random) < parameters.billingRecovery)
            return
        }
        draw -= daily.failure
        if draw < daily.refund {
            actions.append(.refundLatest(customer: index))
            customer.phase = .gone
            return
        }
        draw -= daily.refund
        if customer.productID == Self.basic, draw < daily.upgrade {
            actions.append(.upgrade(customer: index, productID: Self.premium))
            customer.productID = Self.premium
            customer.periodEnd = day + Self.periodDays
        }
    }
}
