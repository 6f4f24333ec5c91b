import Foundation

/// The money flows (``MetricName/revenue``, ``MetricName/refundRate``), the churn that ``MetricName/churn`` and
/// ``MetricName/churnRate`` share, and how ratios are laid out.
extension MetricAccumulator {
    /// A paid period's price in units of its currency, or `nil` for a free trial or a free period.
    static func paidAmount(_ period: SubscriptionPeriod) -> Double? {
        guard !period.isTrial, period.price > 0 else { return nil }
        return Double(period.price) / 1000
    }

    /// What a refund took back of a paid period: its price × the refunded share, when it was refunded by `now`.
    func refundedAmount(_ period: SubscriptionPeriod) -> (amount: Double, at: Date)? {
        guard let price = Self.paidAmount(period), let refunded = period.refundedAt, happened(refunded) else {
            return nil
        }
        return (price * Double(period.refundedShare) / 100_000, refunded)
    }

    /// Revenue (each paid period's price in the bucket it began in, each refund taken off in the bucket it is
    /// dated in) or the refund rate (of the paid periods that began in a bucket, the share of their price refunded
    /// since), per currency and in the reporting currency.
    mutating func addMoney(_ periods: [SubscriptionPeriod]) {
        for period in periods where counts(period) {
            guard let price = Self.paidAmount(period), happened(period.start) else { continue }
            let refund = refundedAmount(period)
            var currencies = [(1.0, period.currency)]
            if let (rate, code) = reported(1, period.currency) { currencies.append((rate, code)) }
            for (rate, currency) in currencies {
                let series = key(period, currency: currency)
                if query.name == .revenue {
                    add(price * rate, key: series, at: period.start)
                    if let refund { add(-refund.amount * rate, key: series, at: refund.at) }
                } else if let bucket = index(of: period.start) {
                    add((refund?.amount ?? 0) * rate, key: series, bucket: bucket)
                    record(weighted(price * rate), .denominator, key: series, bucket: bucket)
                }
            }
        }
    }

    /// The periods of a subscription whose access ended, by `now`, without a next period beginning by then, with
    /// why: the subscription's end reason (`voluntary`, `involuntary`, `other`) for its last period, `other` for
    /// a lapse a later resubscription followed. Refunds are not churn, nor a lapse billing recovered from within
    /// Apple's retry window.
    func churned(_ timeline: SubscriptionTimeline) -> [(period: SubscriptionPeriod, reason: String)] {
        let periods = timeline.periods
        var found: [(SubscriptionPeriod, String)] = []
        for (index, period) in periods.enumerated() where counts(period) {
            let next = periods.indices.contains(index + 1) ? periods[index + 1] : nil
            guard happened(period.accessEnd), next.map({ $0.start > period.accessEnd }) ?? true,
                period.refundedAt == nil,
                next.map({ $0.start.timeIntervalSince(period.expiresAt) > Self.billingRetryWindow }) ?? true
            else { continue }
            found.append((period, next == nil ? timeline.endReason : "other"))
        }
        return found
    }

    /// Every ratio's denominators, bucket by bucket: those added per bucket and those added over runs.
    var ratioDenominators: [String: [Double]] { laidOut(denominatorDeltas, over: denominators) }
}

extension MetricName {
    /// Whether each point is a share (a numerator over a denominator; 0 where nothing divides).
    public var isRatio: Bool {
        [.trialConversion, .cohorts, .churnRate, .refundRate, .realizedLTV, .conversionToPaying].contains(self)
    }
}
