import AppStoreSimulator
import Foundation
import Testing

/// A population decides, day by day, what each customer does: reproducibly from its seed, in an order a store
/// accepts (nothing before a customer subscribes, nothing after they are gone), at the rates it was given.
@Suite struct PopulationTests {
    /// Every day's actions of a whole run.
    static func run(_ parameters: PopulationParameters) -> [[PopulationAction]] {
        var population = Population(parameters)
        return (0..<parameters.days).map { population.actions(onDay: $0) }
    }

    static func parameters(subscribers: Int = 2_000, months: Int = 12, seed: UInt64 = 7) -> PopulationParameters {
        var parameters = PopulationParameters()
        parameters.subscribers = subscribers
        parameters.months = months
        parameters.seed = seed
        return parameters
    }

    @Test("the same seed and rates make the same days; another seed makes others")
    func reproducible() {
        let first = Self.run(Self.parameters(subscribers: 300, months: 3))
        #expect(first == Self.run(Self.parameters(subscribers: 300, months: 3)))
        #expect(first != Self.run(Self.parameters(subscribers: 300, months: 3, seed: 8)))
    }

    @Test("every customer subscribes once, acts only after that, and never once gone (refunded)")
    func orderAStoreAccepts() {
        let days = Self.run(Self.parameters())
        var subscribedOn: [Int: Int] = [:]
        var refunded: Set<Int> = []
        for (day, actions) in days.enumerated() {
            for action in actions {
                if case .subscribe = action {
                    #expect(subscribedOn[action.customer] == nil, "customer \(action.customer) subscribed twice")
                    subscribedOn[action.customer] = day
                    continue
                }
                #expect(subscribedOn[action.customer] != nil, "\(action) before subscribing")
                #expect(!refunded.contains(action.customer), "\(action) after a refund")
                if case .refundLatest = action { refunded.insert(action.customer) }
            }
        }
        #expect(subscribedOn.count == 2_000)
        // Spread over the run: every month has newcomers.
        let months = Set(subscribedOn.values.map { $0 / 31 })
        #expect(months.count >= 11)
    }

    @Test("a trial that does not convert is cancelled within its 7 days; a recovery follows a failure")
    func trialsAndRecoveries() {
        let days = Self.run(Self.parameters())
        var trialStart: [Int: Int] = [:]
        var failedOn: [Int: Int] = [:]
        var cancelledInTrial = 0
        var recoveries = 0
        for (day, actions) in days.enumerated() {
            for action in actions {
                switch action {
                case .subscribe(let customer, _, true): trialStart[customer] = day
                case .turnOffAutoRenew(let customer):
                    if let start = trialStart[customer], day - start < 7 { cancelledInTrial += 1 }
                case .failNextRenewal(let customer): failedOn[customer] = day
                case .recoverBilling(let customer):
                    let failed = failedOn[customer]
                    #expect(failed != nil && failed! < day, "customer \(customer) recovered without a failure")
                    recoveries += 1
                default: break
                }
            }
        }
        // 50 % start with a trial and 60 % of those cancel in it: about 600 of 2,000.
        #expect((500...700).contains(cancelledInTrial), "\(cancelledInTrial) trials cancelled")
        #expect(recoveries > 0 && recoveries < failedOn.count)
    }

    @Test("the monthly rates come out as given: paying customer-days × the daily hazard")
    func rates() {
        var parameters = Self.parameters(subscribers: 5_000)
        parameters.monthlyChurn = 0.1
        parameters.refund = 0.02
        parameters.trialShare = 0  // every cancellation is a paying customer's
        var population = Population(parameters)
        var payingDays = 0
        var cancels = 0
        var refunds = 0
        for day in 0..<parameters.days {
            let paying = population.phases["paying"] ?? 0
            let actions = population.actions(onDay: day)
            payingDays += paying
            for action in actions {
                if case .refundLatest = action { refunds += 1 }
            }
            cancels += actions.count { if case .turnOffAutoRenew = $0 { true } else { false } }
        }
        let months = Double(payingDays) / 30
        #expect(abs(Double(refunds) / months - 0.02) < 0.004, "refunds \(Double(refunds) / months) per paying month")
        #expect(
            abs(Double(cancels) / months - 0.1) < 0.01, "cancellations \(Double(cancels) / months) per paying month")
    }

    @Test("parameters out of range are refused naming the field and value")
    func validation() {
        var parameters = PopulationParameters()
        parameters.monthlyChurn = 1.5
        #expect(throws: SimulatorError(.invalidParameter, "monthly-churn is 1.5; it must be from 0 to 1")) {
            try parameters.validate()
        }
        parameters = PopulationParameters()
        parameters.subscribers = 0
        #expect(throws: SimulatorError(.invalidParameter, "subscribers is 0; it must be from 1 to 1000000")) {
            try parameters.validate()
        }
        parameters = PopulationParameters()
        parameters.billingFailure = .nan
        #expect(throws: SimulatorError.self) { try parameters.validate() }
        #expect(throws: Never.self) { try PopulationParameters().validate() }
    }
}
