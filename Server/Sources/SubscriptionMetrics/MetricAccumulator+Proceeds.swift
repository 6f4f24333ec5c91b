import Foundation

/// ``MetricName/proceeds`` and ``MetricName/realizedLTV``: what a customer's paid periods kept for the developer
/// (``ProceedsRules``), booked when each began, refunds taking back the same share when dated.
extension MetricAccumulator {
    /// Every amount one customer's periods kept, in the period's currency: per subscription group, in start order,
    /// each paid period's price after tax and the commission its paid days of service so far earn; a refund
    /// takes back the same share of it. Only counted environments and what happened by `now`.
    func keptAmounts(_ timelines: [SubscriptionTimeline]) -> [(period: SubscriptionPeriod, amount: Double, at: Date)] {
        var kept: [(SubscriptionPeriod, Double, Date)] = []
        let groups = Dictionary(grouping: timelines) { $0.group ?? $0.originalTransactionID }
        for (_, members) in groups {
            var paidDays = 0.0
            var paidUntil: Date?
            for period in members.flatMap(\.periods).sorted(by: { $0.start < $1.start }) {
                guard let price = Self.paidAmount(period) else { continue }
                if let until = paidUntil,
                    period.start.timeIntervalSince(until) > ProceedsRules.longestLapse * 86_400
                {
                    paidDays = 0
                }
                let amount = query.proceeds.proceeds(of: price, storefront: period.storefront, afterPaidDays: paidDays)
                paidDays += period.paidDays
                paidUntil = max(paidUntil ?? period.accessEnd, period.accessEnd)
                guard counts(period), happened(period.start) else { continue }
                kept.append((period, amount, period.start))
                if let refund = refundedAmount(period) {
                    kept.append((period, -amount * refund.amount / price, refund.at))
                }
            }
        }
        return kept
    }

    /// The currencies an amount of `currency` counts in: its own, and the reporting currency's when it has a rate,
    /// each with its rate.
    func currencies(_ currency: String) -> [(rate: Double, name: String)] {
        [(1.0, currency)] + (reported(1, currency).map { [($0.0, $0.1)] } ?? [])
    }

    /// Proceeds of one customer, per currency, each amount in whole milliunits (as prices are) so sums do not
    /// depend on the order customers are added in.
    mutating func addProceeds(_ timelines: [SubscriptionTimeline]) {
        for (period, amount, at) in keptAmounts(timelines) {
            for (rate, currency) in currencies(period.currency) {
                add(Self.thousandths(amount * rate), key: key(period, currency: currency), at: at)
            }
        }
    }

    /// Realized LTV: the customer joins the cohort of the month of their first period (the first bucket's month or
    /// later) and adds to its size from its first bucket on; each amount they kept adds, from the bucket it is
    /// dated in (or the first), to the cohort's cumulative proceeds. A point is the cohort's proceeds so far per
    /// customer, for the buckets that have begun.
    mutating func addRealizedLTV(_ timelines: [SubscriptionTimeline]) {
        let counted = timelines.flatMap(\.periods).filter { counts($0) }
        guard let first = counted.min(by: { $0.start < $1.start }), happened(first.start),
            includesCohort(beginning: first.start)
        else { return }
        let cohort = cohortBucket(first.start)
        guard cohort < instants.count else { return }
        let name = Self.monthName(first.start)
        for (_, currency) in currencies(first.currency) {
            let series = key(first, currency: currency, suffix: name)
            record(weighted(1), .denominatorDelta, key: series, bucket: cohort)
            record(-weighted(1), .denominatorDelta, key: series, bucket: instants.count)
        }
        for (period, amount, at) in keptAmounts(timelines) where at < limit {
            let from = index(of: at) ?? 0
            guard from < instants.count else { continue }
            for (rate, currency) in currencies(period.currency) {
                add(
                    Self.thousandths(amount * rate), key: key(first, currency: currency, suffix: name),
                    buckets: from..<instants.count)
            }
        }
    }
}
