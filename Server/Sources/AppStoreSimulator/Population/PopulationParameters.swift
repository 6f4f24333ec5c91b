/// How a simulated population of customers behaves: how many, for how long, and the rates of what they do. Rates
/// are per month (a 30-day period, as the simulator's production months) or, for trials, per trial.
public struct PopulationParameters: Sendable, Hashable {
    /// Customers who subscribe, each on a day spread evenly over the run. Default 1,000.
    public var subscribers = 1_000
    /// How long the run lasts, in months of 30.4375 days. Default 12.
    public var months = 12
    /// The random seed: the same seed and parameters make the same population. Default 1.
    public var seed: UInt64 = 1
    /// The share of new subscribers who start with the product's free trial. Default 0.5.
    public var trialShare = 0.5
    /// The share of trials that convert to a paid period; the others turn auto-renew off during the trial.
    /// Default 0.4.
    public var trialConversion = 0.4
    /// The share of paying subscribers who turn auto-renew off in a month (and so leave at its end). Default 0.08.
    public var monthlyChurn = 0.08
    /// The share of paying subscribers whose next renewal fails to bill, per month. Default 0.03.
    public var billingFailure = 0.03
    /// The share of failed renewals that billing recovers (1 to 20 days after, within or after the grace
    /// period); the others expire after Apple's retry. Default 0.5.
    public var billingRecovery = 0.5
    /// The share of paying subscribers who are refunded their current period, per month. Default 0.01.
    public var refund = 0.01
    /// The share of basic-plan subscribers who upgrade to premium, per month. Default 0.02.
    public var upgrade = 0.02
    /// The share of customers who buy in Germany (`DEU`, whose prices include 19 % VAT); the others buy in the
    /// United States (`USA`, prices before tax). Default 0.3.
    public var vatShare = 0.3

    /// The defaults.
    public init() {}

    /// Days the run lasts: `months` of 30.4375 days, rounded.
    public var days: Int { Int((Double(months) * 30.4375).rounded()) }

    /// Checks every field's range.
    /// - Throws: ``SimulatorError`` (`invalid_parameter`) naming the field and its value.
    public func validate() throws {
        guard (1...1_000_000).contains(subscribers) else {
            throw SimulatorError(.invalidParameter, "subscribers is \(subscribers); it must be from 1 to 1000000")
        }
        guard (1...120).contains(months) else {
            throw SimulatorError(.invalidParameter, "months is \(months); it must be from 1 to 120")
        }
        let shares: [(String, Double)] = [
            ("trial-share", trialShare), ("trial-conversion", trialConversion), ("monthly-churn", monthlyChurn),
            ("billing-failure", billingFailure), ("billing-recovery", billingRecovery), ("refund", refund),
            ("upgrade", upgrade), ("vat-share", vatShare),
        ]
        for (name, value) in shares where !(value >= 0 && value <= 1) {
            throw SimulatorError(.invalidParameter, "\(name) is \(value); it must be from 0 to 1")
        }
        let monthly = monthlyChurn + billingFailure + refund
        guard monthly < 1 else {
            throw SimulatorError(
                .invalidParameter,
                "monthly-churn + billing-failure + refund is \(monthly); together they must stay below 1")
        }
    }
}
