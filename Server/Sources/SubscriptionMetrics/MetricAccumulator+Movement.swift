import Foundation

/// ``MetricName/mrrMovement``: each customer's MRR at the first bucket's start and at each bucket's snapshot
/// instant (its end, or `now`), and each bucket's change classified by what the customer did.
extension MetricAccumulator {
    /// Adds one customer's MRR movements: per split value and currency (and the reporting currency), the change
    /// of the customer's MRR over each bucket is `new` (from nothing, never paid before in it), `reactivation`
    /// (from nothing, having paid before), `expansion` or `contraction` (up or down from something), or `churned`
    /// (to nothing). Summed over customers, the kinds of a bucket add up to MRR's change over it.
    mutating func addMovements(_ timelines: [SubscriptionTimeline]) {
        guard let first = buckets.first else { return }
        let points = [first.start] + instants
        // Per series prefix (split value and currency): the customer's MRR at each point, and when it first paid.
        var values: [String: [Double]] = [:]
        var firstPaid: [String: Date] = [:]
        for timeline in timelines {
            let holders = Self.holders(timeline.periods, at: points)
            for (point, holder) in holders.enumerated() {
                guard let holder, counts(holder), let monthly = Self.monthlyPrice(holder) else { continue }
                for (amount, prefix) in movementSeries(holder, monthly: monthly) {
                    values[prefix, default: Array(repeating: 0, count: points.count)][point] += amount
                }
            }
            for period in timeline.periods where counts(period) {
                guard let monthly = Self.monthlyPrice(period) else { continue }
                for (_, prefix) in movementSeries(period, monthly: monthly) {
                    firstPaid[prefix] = min(firstPaid[prefix] ?? period.start, period.start)
                }
            }
        }
        for (prefix, series) in values {
            for bucket in 0..<(points.count - 1) {
                let (before, after) = (series[bucket], series[bucket + 1])
                guard abs(after - before) > 1e-9 else { continue }
                let kind: String
                if before <= 1e-9 {
                    kind = (firstPaid[prefix] ?? .distantFuture) < points[bucket] ? "reactivation" : "new"
                } else if after <= 1e-9 {
                    kind = "churned"
                } else {
                    kind = after > before ? "expansion" : "contraction"
                }
                add(after - before, key: prefix + " " + kind, bucket: bucket)
            }
        }
    }

    /// A paid period's price normalised to a month, or `nil` for a free trial or a free period.
    static func monthlyPrice(_ period: SubscriptionPeriod) -> Double? {
        guard !period.isTrial, period.price > 0 else { return nil }
        return Double(period.price) / 1000 / period.months
    }

    /// The series a period's monthly amount counts in: its currency's, and the reporting currency's when it has
    /// a rate; each prefixed by the split value when the query splits.
    func movementSeries(_ period: SubscriptionPeriod, monthly: Double) -> [(Double, String)] {
        var series = [(monthly, period.currency)]
        if let (converted, code) = reported(monthly, period.currency) { series.append((converted, code)) }
        guard let split = query.split else { return series }
        let value = split.value(of: period)
        return series.map { ($0.0, value + " " + $0.1) }
    }

    /// The period holding access at each of `instants` (sorted): the last, in start order, that began before the
    /// instant and whose access had not ended, as snapshots count (``addSnapshots(_:at:)``); walked once.
    static func holders(_ periods: [SubscriptionPeriod], at instants: [Date]) -> [SubscriptionPeriod?] {
        var started = 0
        return instants.map { instant in
            while started < periods.count, periods[started].start < instant { started += 1 }
            var holder = started - 1
            while holder >= 0, instant > periods[holder].accessEnd { holder -= 1 }
            return holder >= 0 ? periods[holder] : nil
        }
    }
}
