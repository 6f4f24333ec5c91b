import Foundation

/// ``MetricName/mrrMovement``: each customer's MRR at the first bucket's start and at the end of every day after
/// it (the clock's instant for the day holding it), and each day's change classified by what the customer did; a
/// bucket sums its days.
extension MetricAccumulator {
    /// Adds one customer's MRR movements: per environment, split value and currency (and the reporting currency),
    /// the change of the customer's MRR over each day is `new` (from nothing, never paid before in it),
    /// `reactivation` (from nothing, having paid before), `expansion` or `contraction` (up or down from
    /// something), or `churned` (to nothing), added to the bucket holding the day. Summed over customers, the kinds
    /// of a bucket add up to MRR's change over it. (A customer's environments are apart: a tester's sandbox
    /// purchases never offset their production ones.)
    mutating func addMovements(_ timelines: [SubscriptionTimeline]) {
        guard let first = buckets.first, let last = instants.last else { return }
        let timelines = timelines.map { Self.renewing($0, query: query, clockEnd: clockEnd) }
        // The first bucket's start, then each day's end to the last snapshot; `bucketOf[i]` holds the change that
        // ends at point i.
        var points = [first.start]
        var bucketOf = [0]
        var bucket = 0
        var day = first.start.addingTimeInterval(86_400)
        if sparse {
            // Chosen days: MRR changes only on them, so their ends are every point that can differ.
            points += instants
            bucketOf += instants.indices
        }
        while !sparse {
            let point = min(day, last)
            while bucket < instants.count - 1, point > instants[bucket] { bucket += 1 }
            points.append(point)
            bucketOf.append(bucket)
            if point >= last { break }
            day = day.addingTimeInterval(86_400)
        }
        // Per classification (environment, then series prefix): the customer's MRR at each point, and when it
        // first paid. Each period's classifications are named once, not at every point it holds.
        var slots: [String: Int] = [:]
        var names: [String] = []
        var values: [[Double]] = []
        var firstPaid: [Date?] = []
        func slot(_ prefix: String) -> Int {
            if let found = slots[prefix] { return found }
            slots[prefix] = values.count
            names.append(String(prefix.split(separator: Self.classificationSeparator, maxSplits: 1).last ?? ""))
            values.append(Array(repeating: 0, count: points.count))
            firstPaid.append(nil)
            return values.count - 1
        }
        // By rollups, the slots of each dimensions and currency, named once (a long history repeats them).
        var slotsOf: [MovementSource: [Int]] = [:]
        func classified(_ period: SubscriptionPeriod, monthly: Double) -> [(Double, Int)] {
            guard keyedByDimensions else {
                return movementSeries(period, monthly: monthly).map { ($0.0, slot($0.1)) }
            }
            return movementAmounts(period, monthly: monthly).flatMap { amount, currency in
                let source = MovementSource(dimensions: period.rollupDimensions, currency: currency)
                if let found = slotsOf[source] { return found.map { (amount, $0) } }
                let found = (movementNumbers[period.rollupDimensions] ?? []).map {
                    slot(RollupKeyParser.name($0, currency, nil))
                }
                slotsOf[source] = found
                return found.map { (amount, $0) }
            }
        }
        for timeline in timelines {
            var named: [[(amount: Double, slot: Int)]?] = Array(repeating: nil, count: timeline.periods.count)
            var paid = false
            for (index, period) in timeline.periods.enumerated() where counts(period) {
                guard let monthly = Self.monthlyPrice(period) else { continue }
                let series = classified(period, monthly: monthly)
                named[index] = series
                paid = true
                for (_, slot) in series { firstPaid[slot] = min(firstPaid[slot] ?? period.start, period.start) }
            }
            guard paid else { continue }
            for (point, holder) in Self.holderIndices(timeline.periods, at: points).enumerated() {
                guard let holder, let series = named[holder] else { continue }
                for (amount, slot) in series { values[slot][point] += amount }
            }
        }
        for (slot, series) in values.enumerated() {
            let name = names[slot]
            for point in 1..<points.count {
                let (before, after) = (series[point - 1], series[point])
                guard abs(after - before) > 1e-9 else { continue }
                let kind: String
                if before <= 1e-9 {
                    kind = (firstPaid[slot] ?? .distantFuture) < points[point - 1] ? "reactivation" : "new"
                } else if after <= 1e-9 {
                    kind = "churned"
                } else {
                    kind = after > before ? "expansion" : "contraction"
                }
                add(after - before, key: name + " " + kind, bucket: bucketOf[point])
            }
        }
    }

    /// Separates a movement's environment from its series while a customer is classified.
    static let classificationSeparator: Character = "\u{1D}"

    /// A paid period's price normalised to a month, or `nil` for a free trial or a free period.
    static func monthlyPrice(_ period: SubscriptionPeriod) -> Double? {
        guard !period.isTrial, period.price > 0 else { return nil }
        return Double(period.price) / 1000 / period.months
    }

    /// A period's monthly amount in its currency, and in the reporting currency when it has a rate.
    func movementAmounts(_ period: SubscriptionPeriod, monthly: Double) -> [(Double, String)] {
        var amounts = [(monthly, period.currency)]
        if let (converted, code) = reported(monthly, period.currency) { amounts.append((converted, code)) }
        return amounts
    }

    /// The classifications a period's monthly amount counts in, each `environment␝series prefix`: its currency's,
    /// and the reporting currency's when it has a rate; the prefix led by the split value when the query splits
    /// (rollups name theirs in ``addMovements(_:)``: for each of ``MetricRollup/movementSplits``, every dimension
    /// it keeps, `*` for the others, counted in one pass; a classification's number holds its environment).
    func movementSeries(_ period: SubscriptionPeriod, monthly: Double) -> [(Double, String)] {
        let series = movementAmounts(period, monthly: monthly)
        let classification = period.environment + String(Self.classificationSeparator)
        guard let split = query.split else { return series.map { ($0.0, classification + $0.1) } }
        let value = split.value(of: period)
        return series.map { ($0.0, classification + value + " " + $0.1) }
    }

    /// The index of the period holding access at each of `instants` (sorted): the last, in start order, that began
    /// before the instant and whose access had not ended, as snapshots count (``addSnapshots(_:at:)``); walked
    /// once.
    static func holderIndices(_ periods: [SubscriptionPeriod], at instants: [Date]) -> [Int?] {
        var started = 0
        return instants.map { instant in
            while started < periods.count, periods[started].start < instant { started += 1 }
            var holder = started - 1
            while holder >= 0, instant > periods[holder].accessEnd { holder -= 1 }
            return holder >= 0 ? holder : nil
        }
    }
}

/// A period's dimensions and a currency: what names its MRR movement classifications by rollups.
struct MovementSource: Hashable {
    var dimensions: Int
    var currency: String
}
