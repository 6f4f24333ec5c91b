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
    /// The query. (A rollup pass counts several metrics in one computation, naming each in turn:
    /// ``MetricRollup``.)
    public internal(set) var query: MetricQuery
    let buckets: [DateInterval]
    /// The instant each snapshot is taken at: a bucket's end, or `now` for the bucket holding it (only buckets
    /// that began before `now` have one). Strictly increasing.
    let instants: [Date]
    /// Per series key, per bucket: the sum (and, for ratios, the denominator).
    var sums: [String: [Double]] = [:]
    var denominators: [String: [Double]] = [:]
    /// Per series key, snapshot values added over runs of buckets: `+v` at a run's first bucket and `-v` after
    /// its last, summed in order by ``series()`` (so a customer's months-long period costs two additions, not one
    /// per day).
    var deltas: [String: [Double]] = [:]
    /// Per series key, a ratio's denominator added over runs of buckets, as ``deltas`` (``MetricName/churnRate``'s
    /// subscriptions with access at each bucket's start).
    var denominatorDeltas: [String: [Double]] = [:]

    /// Whether the buckets are chosen days, not the calendar's run of them (``init(_:days:)``).
    var sparse = false

    /// Whether series are keyed by every split dimension at once (``MetricRollup``'s contributions), not by the
    /// query's split.
    var keyedByDimensions = false
    /// With ``keyedByDimensions``: every addition, in place of the tables above (``RollupCells``).
    var cells = RollupCells()
    /// With ``keyedByDimensions``: per period's ``SubscriptionPeriod/rollupDimensions``, the numbers of its MRR
    /// movement classifications (``RollupKeyParser/movements``).
    var movementNumbers: [Int: [Int]] = [:]
    /// What each addition is multiplied by: -1 while a rollup pass takes a customer's old timelines away
    /// (``MetricRollup/change(from:to:proceeds:start:)``), 1 otherwise.
    var weight = 1.0

    /// What one addition of `value` adds: × ``weight``, and in rollups (``keyedByDimensions``) rounded to
    /// millionths (``MetricRollup/scale``), so a row is whole millionths however its additions are summed and a
    /// difference counted in one pass equals the two contributions' difference.
    func weighted(_ value: Double) -> Double {
        guard keyedByDimensions else { return value * weight }
        return (value * weight * MetricRollup.scale).rounded() / MetricRollup.scale
    }

    /// The environments counted, as a list (one or two names: faster to search than to hash).
    let environments: [String]

    /// Starts a computation.
    /// - Parameter query: What to compute.
    public init(_ query: MetricQuery) {
        self.init(query, buckets: query.interval.buckets(from: query.from, to: query.to))
    }

    /// Starts a computation over the given UTC days only, each its own bucket (``MetricRollup``'s contributions:
    /// the days on which something the metrics count can change, so a long history costs its events, not its
    /// days).
    /// With `before`, the days before it are one leading bucket (``MetricRollup``'s window: what happened before it
    /// is counted there, so every later bucket holds exactly what it holds without the window).
    init(_ query: MetricQuery, days: [Int], before: Int? = nil) {
        var buckets: [DateInterval] = []
        var chosen = days
        if let before, let first = days.first, first < before {
            buckets.append(
                DateInterval(start: MetricRollup.start(ofDay: first), end: MetricRollup.start(ofDay: before)))
            chosen = days.filter { $0 >= before }
        }
        buckets += chosen.map { DateInterval(start: MetricRollup.start(ofDay: $0), duration: 86_400) }
        self.init(query, buckets: buckets)
        sparse = true
        // The leading bucket's start-of-bucket snapshot is taken at its end: the window's first day then changes
        // from what held as it began, as it does without the window.
        if buckets.count > chosen.count, !starts.isEmpty { starts[0] = buckets[0].end }
    }

    init(_ query: MetricQuery, buckets: [DateInterval]) {
        self.query = query
        environments = query.environments.sorted()
        let (end, limit) = Self.clock(query)
        self.buckets = buckets
        clockEnd = end
        self.limit = limit
        instants = buckets.prefix { $0.start < query.now }.map { min($0.end, end) }
        starts = buckets.prefix { $0.start < query.now }.map(\.start)
    }

    /// The start of each bucket that began before `now`: where ``MetricName/churnRate`` counts who had access.
    var starts: [Date]

    /// The end of what has happened: `now`, or with ``MetricQuery/dayClock`` the end of its UTC day.
    let clockEnd: Date
    /// The end of what a bucket counts: `to`, or with ``MetricQuery/dayClock`` the end of its UTC day.
    let limit: Date

    /// Adds one customer.
    /// - Parameter evidence: The customer's evidence.
    public mutating func add(_ evidence: EvidenceSet) {
        add(timelines: SubscriptionTimeline.timelines(evidence))
    }

    /// Adds one customer from its timelines (``SubscriptionTimeline/timelines(_:)``), so several metrics can share
    /// one reading of a customer's evidence.
    /// - Parameter timelines: The customer's timelines.
    public mutating func add(timelines: [SubscriptionTimeline]) {
        if query.name == .reactivations {
            addReactivations(timelines)
            return
        }
        if query.name == .proceeds {
            addProceeds(timelines)
            return
        }
        if query.name == .realizedLTV {
            addRealizedLTV(timelines)
            return
        }
        if query.name == .mrrMovement {
            addMovements(timelines)
            return
        }
        if query.name == .conversionToPaying {
            addConversion(timelines)
            return
        }
        for timeline in timelines { add(timeline) }
    }

    /// Apple retries billing for up to 60 days: a lapse longer than that is the customer leaving.
    static let billingRetryWindow: TimeInterval = 60 * 86_400

    /// Reactivations of one customer: across its subscriptions of a group, a period that begins after the
    /// customer's access in the group had ended — more than 60 days after, within one subscription (a shorter lapse
    /// is a billing recovery), or at all, for a later subscription's first period.
    mutating func addReactivations(_ timelines: [SubscriptionTimeline]) {
        let groups = Dictionary(grouping: timelines) { $0.group ?? $0.originalTransactionID }
        for (_, members) in groups {
            let periods = members.flatMap { timeline in
                timeline.periods.enumerated().map { (timeline.originalTransactionID, $0.offset, $0.element) }
            }.sorted { ($0.2.start, $0.0) < ($1.2.start, $1.0) }
            var accessUntil: Date?
            var lastOriginal: String?
            for (original, _, period) in periods {
                if let until = accessUntil, period.start > until, counts(period) {
                    let lapse = period.start.timeIntervalSince(until)
                    if original != lastOriginal || lapse > Self.billingRetryWindow {
                        add(1, key: key(period), at: period.start)
                    }
                }
                accessUntil = max(accessUntil ?? period.accessEnd, period.accessEnd)
                lastOriginal = original
            }
        }
    }

    /// Adds one subscription's timeline.
    public mutating func add(_ timeline: SubscriptionTimeline) {
        let timeline = Self.renewing(timeline, query: query, clockEnd: clockEnd)
        let periods = timeline.periods
        guard !buckets.isEmpty else { return }
        switch query.name {
        case .activeSubscriptions, .activeTrials, .mrr, .arr:
            addSnapshots(periods, at: instants)
        case .revenue, .refundRate:
            addMoney(periods)
        case .churnRate:
            addSnapshots(periods, at: starts)
            for (period, _) in churned(timeline) { add(1, key: key(period), at: period.accessEnd) }
        case .newSubscriptions:
            if let first = periods.first, counts(first) { add(1, key: key(first), at: first.start) }
        case .renewals:
            for period in periods.dropFirst() where counts(period) { add(1, key: key(period), at: period.start) }
        case .trialConversion:
            for (index, period) in periods.enumerated() where period.isTrial && counts(period) {
                let ended = min(period.accessEnd, period.refundedAt ?? .distantFuture)
                guard happened(ended) else { continue }
                let next = periods.indices.contains(index + 1) ? periods[index + 1] : nil
                let converted =
                    next.map { !$0.isTrial && $0.price > 0 && $0.start <= ended.addingTimeInterval(86_400) } ?? false
                addRatio(converted ? 1 : 0, key: key(period), at: ended)
            }
        case .churn:
            for (period, reason) in churned(timeline) { add(1, key: key(period, suffix: reason), at: period.accessEnd) }
        case .graceRecoveries, .billingRecoveries:
            for (previous, next) in zip(periods, periods.dropFirst()) where counts(next) {
                let lapse = next.start.timeIntervalSince(previous.expiresAt)
                guard lapse > 0, lapse <= Self.billingRetryWindow, happened(next.start) else { continue }
                let inGrace = timeline.graceEnds.contains { $0 > previous.expiresAt && next.start <= $0 }
                if inGrace == (query.name == .graceRecoveries) { add(1, key: key(next), at: next.start) }
            }
        case .reactivations:
            addReactivations([timeline])
        case .mrrMovement:
            addMovements([timeline])
        case .proceeds:
            addProceeds([timeline])
        case .realizedLTV:
            addRealizedLTV([timeline])
        case .cohorts:
            addCohort(timeline)
        case .refunds:
            for period in periods where counts(period) {
                guard let refunded = period.refundedAt, happened(refunded) else { continue }
                add(1, key: key(period, suffix: "count"), at: refunded)
                let amount = Double(period.price) / 1000 * Double(period.refundedShare) / 100_000
                add(amount, key: key(period, suffix: "amount " + period.currency), at: refunded)
                if let (converted, code) = reported(amount, period.currency) {
                    add(converted, key: key(period, suffix: "amount " + code), at: refunded)
                }
            }
        case .retentionRequests, .retentionSaves:
            break  // counted from retention answers (RetentionAccumulator)
        case .conversionToPaying:
            addConversion([timeline])
        }
    }

    /// A snapshot metric's share of one subscription: at each bucket's instant, the last period (in start order)
    /// that began before the instant and still gave access at it — counted once per subscription, whatever
    /// overlaps. Walks only the buckets between the first period's start and the latest access end, and adds each
    /// run of buckets held by one period at once.
    mutating func addSnapshots(_ periods: [SubscriptionPeriod], at instants: [Date]) {
        guard let first = periods.first, let latestEnd = periods.map(\.accessEnd).max() else { return }
        var index = Self.firstInstant(after: first.start, in: instants)
        var started = 0
        var run: (holder: Int, from: Int)?
        while index < instants.count, instants[index] <= latestEnd {
            let instant = instants[index]
            while started < periods.count, periods[started].start < instant { started += 1 }
            var holder = started - 1
            while holder >= 0, instant > periods[holder].accessEnd { holder -= 1 }
            if run?.holder != holder {
                if let run { addSnapshot(periods[run.holder], buckets: run.from..<index) }
                run = holder >= 0 ? (holder, index) : nil
            }
            index += 1
        }
        if let run { addSnapshot(periods[run.holder], buckets: run.from..<index) }
    }

    /// The first of `instants` after `date` (their count when none is).
    static func firstInstant(after date: Date, in instants: [Date]) -> Int {
        var low = 0
        var high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] > date { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// What one period adds to each snapshot in `range`.
    mutating func addSnapshot(_ period: SubscriptionPeriod, buckets range: Range<Int>) {
        guard counts(period), !range.isEmpty else { return }
        switch query.name {
        case .activeSubscriptions: add(1, key: key(period), buckets: range)
        case .activeTrials where period.isTrial: add(1, key: key(period), buckets: range)
        case .mrr, .arr:
            guard !period.isTrial, period.price > 0 else { break }
            let monthly = Double(period.price) / 1000 / period.months * (query.name == .arr ? 12 : 1)
            add(monthly, key: key(period, currency: period.currency), buckets: range)
            if let (converted, code) = reported(monthly, period.currency) {
                add(converted, key: key(period, currency: code), buckets: range)
            }
        case .churnRate:
            let series = key(period)
            record(weighted(1), .denominatorDelta, key: series, bucket: range.lowerBound)
            record(-weighted(1), .denominatorDelta, key: series, bucket: range.upperBound)
        default: break
        }
    }

    mutating func add(_ value: Double, key: String, buckets range: Range<Int>) {
        record(weighted(value), .delta, key: key, bucket: range.lowerBound)
        record(-weighted(value), .delta, key: key, bucket: range.upperBound)
    }

    /// The sums with the snapshot runs laid out bucket by bucket.
    var totals: [String: [Double]] { laidOut(deltas, over: sums) }

    /// `base` with runs added over buckets (`+v` where a run starts, `-v` after it ends) laid out bucket by bucket.
    func laidOut(_ runs: [String: [Double]], over base: [String: [Double]]) -> [String: [Double]] {
        var result = base
        for (key, delta) in runs {
            var running = 0.0
            var values = result[key] ?? Array(repeating: 0, count: buckets.count)
            for index in values.indices {
                running += delta[index]
                values[index] += running
            }
            result[key] = values
        }
        return result
    }

    /// The series, sorted by key; every bucket has a point (0 where nothing happened; a ratio with nothing to
    /// divide is 0).
    public func series() -> [MetricSeries] {
        let starts = buckets.map(\.start)
        let sums = totals
        let denominators = ratioDenominators
        let keys = sums.keys.sorted()
        guard !keys.isEmpty else {
            return [MetricSeries(key: defaultKey, points: starts.map { ($0, 0) })]
        }
        return keys.map { key in
            let values = sums[key]!
            let points = starts.indices.map { index -> (start: Date, value: Double) in
                if let denominator = denominators[key]
                    ?? (query.name.isRatio ? Array(repeating: 0, count: starts.count) : nil)
                {
                    // Both sides rounded to thousandths first (amounts are in milliunits), so the order customers
                    // were added in leaves no float dust in a money ratio.
                    let (part, whole) = (Self.thousandths(values[index]), Self.thousandths(denominator[index]))
                    return (starts[index], whole == 0 ? 0 : part / whole)
                }
                return (starts[index], Self.thousandths(values[index]))
            }
            return MetricSeries(key: key, points: points)
        }
    }

    /// `value` rounded to thousandths (runs of added and removed amounts leave float dust); `+ 0` makes -0 zero.
    static func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 + 0 }

    var defaultKey: String { query.split == nil ? "all" : "none" }

    /// `2026-01`: a cohort's name, the UTC month of its first purchase.
    public static func monthName(_ date: Date) -> String {
        let date = UTCDate(date)
        return "\(date.year)-\(date.month < 10 ? "0" : "")\(date.month)"
    }

    func counts(_ period: SubscriptionPeriod) -> Bool { environments.contains(period.environment) }

    /// An amount in the query's reporting currency, with that series' currency name (`reporting USD`); `nil`
    /// without a reporting currency or a rate for `currency`.
    func reported(_ amount: Double, _ currency: String) -> (Double, String)? {
        guard let reporting = query.reporting, let rate = reporting.rate(for: currency) else { return nil }
        return (amount * rate, "reporting " + reporting.code)
    }

    func key(_ period: SubscriptionPeriod, currency: String? = nil, suffix: String? = nil) -> String {
        if keyedByDimensions { return RollupKeyParser.name(period.rollupDimensions, currency, suffix) }
        if query.split == nil, currency == nil, suffix == nil { return "all" }
        let parts = [query.split.map { $0.value(of: period) }, currency, suffix].compactMap { $0 }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    mutating func add(_ value: Double, key: String, bucket: Int) {
        record(weighted(value), .sum, key: key, bucket: bucket)
    }

    mutating func add(_ value: Double, key: String, at date: Date) {
        guard let bucket = index(of: date) else { return }
        add(value, key: key, bucket: bucket)
    }

    mutating func addRatio(_ value: Double, key: String, at date: Date) {
        guard let bucket = index(of: date) else { return }
        add(value, key: key, bucket: bucket)
        record(weighted(1), .denominator, key: key, bucket: bucket)
    }

    /// The bucket holding `date`, if any.
    func index(of date: Date) -> Int? {
        guard let first = buckets.first, let last = buckets.last, date >= first.start, date < last.end,
            date < limit
        else { return nil }
        var low = 0
        var high = buckets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if buckets[middle].start <= date { low = middle } else { high = middle - 1 }
        }
        return date < buckets[low].end ? low : nil
    }
}
