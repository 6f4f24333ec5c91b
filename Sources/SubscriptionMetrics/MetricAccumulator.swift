public import Foundation
public import SubscriptionEngine

/// Computes one metric over customers added one at a time (so a whole project streams through in pages): each
/// customer's evidence becomes ``SubscriptionTimeline``s, and each timeline adds to the buckets it touches.
///
/// ```swift
/// var metric = MetricAccumulator(MetricQuery(name: .mrr, from: start, to: end, interval: .day, now: now))
/// for evidence in customers { metric.add(evidence) }
/// let series = metric.series()
/// ```
public struct MetricAccumulator: Sendable {
    /// The query.
    public let query: MetricQuery
    let buckets: [DateInterval]
    /// Per series key, per bucket: the sum (and, for ratios, the denominator).
    var sums: [String: [Double]] = [:]
    var denominators: [String: [Double]] = [:]

    /// Starts a computation.
    /// - Parameter query: What to compute.
    public init(_ query: MetricQuery) {
        self.query = query
        buckets = query.interval.buckets(from: query.from, to: query.to)
    }

    /// Adds one customer.
    /// - Parameter evidence: The customer's evidence.
    public mutating func add(_ evidence: EvidenceSet) {
        for timeline in SubscriptionTimeline.timelines(evidence) { add(timeline) }
    }

    /// Adds one subscription's timeline.
    public mutating func add(_ timeline: SubscriptionTimeline) {
        let periods = timeline.periods
        guard !buckets.isEmpty else { return }
        switch query.name {
        case .activeSubscriptions, .activeTrials, .mrr:
            for (index, bucket) in buckets.enumerated() {
                let instant = min(bucket.end, query.now)
                guard bucket.start < query.now,
                    let period = periods.last(where: { $0.start < instant && instant <= $0.accessEnd }),
                    counts(period)
                else { continue }
                switch query.name {
                case .activeSubscriptions: add(1, key: key(period), bucket: index)
                case .activeTrials where period.isTrial: add(1, key: key(period), bucket: index)
                case .mrr where !period.isTrial && period.price > 0:
                    add(
                        Double(period.price) / 1000 / period.months, key: key(period, currency: period.currency),
                        bucket: index)
                default: break
                }
            }
        case .newSubscriptions:
            if let first = periods.first, counts(first) { add(1, key: key(first), at: first.start) }
        case .renewals:
            for period in periods.dropFirst() where counts(period) { add(1, key: key(period), at: period.start) }
        case .trialConversion:
            for (index, period) in periods.enumerated() where period.isTrial && counts(period) {
                let ended = min(period.accessEnd, period.refundedAt ?? .distantFuture)
                guard ended <= query.now else { continue }
                let next = periods.indices.contains(index + 1) ? periods[index + 1] : nil
                let converted =
                    next.map { !$0.isTrial && $0.price > 0 && $0.start <= ended.addingTimeInterval(86_400) } ?? false
                addRatio(converted ? 1 : 0, key: key(period), at: ended)
            }
        case .churn:
            for (index, period) in periods.enumerated() where counts(period) {
                let next = periods.indices.contains(index + 1) ? periods[index + 1] : nil
                // Access ended without a next period beginning by then: a lapse.
                guard period.accessEnd <= query.now, next.map({ $0.start > period.accessEnd }) ?? true,
                    period.refundedAt == nil
                else { continue }
                let reason = next == nil ? timeline.endReason : "other"
                add(1, key: key(period, suffix: reason), at: period.accessEnd)
            }
        case .refunds:
            for period in periods where counts(period) {
                guard let refunded = period.refundedAt, refunded <= query.now else { continue }
                add(1, key: key(period, suffix: "count"), at: refunded)
                let amount = Double(period.price) / 1000 * Double(period.refundedShare) / 100_000
                add(amount, key: key(period, suffix: "amount " + period.currency), at: refunded)
            }
        }
    }

    /// The series, sorted by key; every bucket has a point (0 where nothing happened; a ratio with nothing to
    /// divide is 0).
    public func series() -> [MetricSeries] {
        let starts = buckets.map(\.start)
        let keys = sums.keys.sorted()
        guard !keys.isEmpty else {
            return [MetricSeries(key: defaultKey, points: starts.map { ($0, 0) })]
        }
        return keys.map { key in
            let values = sums[key]!
            let points = starts.indices.map { index -> (start: Date, value: Double) in
                if let denominator = denominators[key] {
                    return (starts[index], denominator[index] == 0 ? 0 : values[index] / denominator[index])
                }
                return (starts[index], (values[index] * 1000).rounded() / 1000)
            }
            return MetricSeries(key: key, points: points)
        }
    }

    var defaultKey: String { query.split == nil ? "all" : "none" }

    func counts(_ period: SubscriptionPeriod) -> Bool { query.environments.contains(period.environment) }

    func key(_ period: SubscriptionPeriod, currency: String? = nil, suffix: String? = nil) -> String {
        let parts = [query.split.map { $0.value(of: period) }, currency, suffix].compactMap { $0 }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    mutating func add(_ value: Double, key: String, bucket: Int) {
        sums[key, default: Array(repeating: 0, count: buckets.count)][bucket] += value
    }

    mutating func add(_ value: Double, key: String, at date: Date) {
        guard let bucket = index(of: date) else { return }
        add(value, key: key, bucket: bucket)
    }

    mutating func addRatio(_ value: Double, key: String, at date: Date) {
        guard let bucket = index(of: date) else { return }
        add(value, key: key, bucket: bucket)
        denominators[key, default: Array(repeating: 0, count: buckets.count)][bucket] += 1
    }

    /// The bucket holding `date`, if any.
    func index(of date: Date) -> Int? {
        guard let first = buckets.first, let last = buckets.last, date >= first.start, date < last.end,
            date < query.to
        else { return nil }
        var low = 0
        var high = buckets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if buckets[middle].start <= date { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
