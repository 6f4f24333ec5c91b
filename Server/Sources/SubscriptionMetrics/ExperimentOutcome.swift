public import Foundation

/// What one enrolled customer did after enrolling in an experiment, from their subscriptions' timelines: the
/// inputs of an experiment's results.
public struct ExperimentOutcome: Sendable, Hashable {
    /// A free trial began at or after enrolment.
    public var startedTrial: Bool
    /// A paid period began within ``conversionWindow`` of enrolment.
    public var converted: Bool
    /// The price of every paid period begun since enrolment, less what refunds since took back (reporting
    /// currency, or the prices' own without one).
    public var revenue: Double
    /// The same for proceeds (``ProceedsRules``: after tax and Apple's commission).
    public var proceeds: Double
    /// Paid periods begun since enrolment that were refunded.
    public var refunds: Int

    /// How long after enrolment a first paid period counts as a conversion: 30 days.
    public static let conversionWindow: TimeInterval = 30 * 86_400

    /// Makes an outcome.
    public init(startedTrial: Bool, converted: Bool, revenue: Double, proceeds: Double, refunds: Int) {
        self.startedTrial = startedTrial
        self.converted = converted
        self.revenue = revenue
        self.proceeds = proceeds
        self.refunds = refunds
    }

    /// A customer's outcome.
    /// - Parameters:
    ///   - timelines: Their subscriptions' timelines (every environment counts: enrolment is not per environment).
    ///   - enrolledAt: When they were enrolled.
    ///   - now: The server's clock (nothing after it counts).
    ///   - reporting: The reporting currency; an amount in a currency it has no rate for is left out. `nil`:
    ///     amounts count as they are.
    ///   - rules: How proceeds are estimated.
    public static func of(
        _ timelines: [SubscriptionTimeline], enrolledAt: Date, now: Date, reporting: ReportingCurrency?,
        rules: ProceedsRules
    ) -> ExperimentOutcome {
        var query = MetricQuery(
            name: .proceeds, from: enrolledAt, to: now, interval: .day,
            environments: Set(timelines.flatMap { $0.periods.map(\.environment) }), now: now)
        query.reporting = reporting
        query.proceeds = rules
        let accumulator = MetricAccumulator(query)
        func converted(_ amount: Double, _ currency: String) -> Double {
            reporting == nil ? amount : accumulator.reported(amount, currency)?.0 ?? 0
        }
        var outcome = ExperimentOutcome(startedTrial: false, converted: false, revenue: 0, proceeds: 0, refunds: 0)
        for period in timelines.flatMap(\.periods) where period.start >= enrolledAt && period.start <= now {
            if period.isTrial { outcome.startedTrial = true }
            guard let price = MetricAccumulator.paidAmount(period) else { continue }
            if period.start.timeIntervalSince(enrolledAt) <= conversionWindow { outcome.converted = true }
            outcome.revenue += converted(price, period.currency)
            if let refund = accumulator.refundedAmount(period) {
                outcome.revenue -= converted(refund.amount, period.currency)
                outcome.refunds += 1
            }
        }
        for (period, amount, at) in accumulator.keptAmounts(timelines)
        where period.start >= enrolledAt && at >= enrolledAt {
            outcome.proceeds += converted(amount, period.currency)
        }
        return outcome
    }
}
