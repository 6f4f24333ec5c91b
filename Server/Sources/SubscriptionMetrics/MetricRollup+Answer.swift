public import Foundation

/// Answering a query from rollups: each summed row is laid into the query's buckets as ``MetricAccumulator`` would
/// have counted it, then the accumulator's own ``MetricAccumulator/series()`` makes the answer.
extension MetricRollup {
    /// The metric whose rows answer `name` and the factor they are multiplied by (ARR is 12 × MRR).
    public static func source(of name: MetricName) -> (metric: MetricName, factor: Double) {
        name == .arr ? (.mrr, 12) : (name, 1)
    }

    /// A query's series from a project's summed rollup rows.
    /// - Parameters:
    ///   - rows: The project's rows of the query's source metric (``source(of:)``), in millionths (``scale``);
    ///     rows of other metrics and environments the query does not count are skipped. A key may repeat (its
    ///     values add).
    ///   - query: What to answer (one of ``metrics``, or ``MetricName/arr``).
    /// - Returns: The series, as ``MetricAccumulator/series()`` gives them.
    public static func answer(_ rows: some Sequence<(key: RollupKey, value: Int64)>, query: MetricQuery)
        -> [MetricSeries]
    {
        var accumulator = MetricAccumulator(query)
        let buckets = accumulator.buckets
        guard let firstBucket = buckets.first else { return accumulator.series() }
        let (metric, factor) = source(of: query.name)
        let firstDay = day(of: firstBucket.start)
        // Per day from the first bucket's: the bucket holding it, and whether the day begins that bucket.
        var holding: [Int] = []
        var startsBucket: [Bool] = []
        for (index, bucket) in buckets.enumerated() {
            let first = day(of: bucket.start)
            for dayNumber in first..<day(of: bucket.end) {
                holding.append(index)
                startsBucket.append(dayNumber == first)
            }
        }
        let reporting = query.reporting
        let today = day(of: query.now)
        let scoped = environmentScoped.contains(metric)
        let scopeName = scope(query.environments) + scopeSeparator
        let firstMonth = MetricInterval.month.start(of: firstBucket.start)
        // Each cohort's month read once, not per row.
        var cohorts: [Substring: Bool] = [:]
        for (stored, storedValue) in rows
        where stored.metric == metric
            && query.environments.contains(stored.environment)
        {
            // Nothing after the clock's day counts; a change on the day only when that day is the query's.
            guard stored.day <= today, stored.column.ordinary == stored.column || stored.day == today else {
                continue
            }
            var key = stored
            if scoped {
                guard key.series.hasPrefix(scopeName) else { continue }
                key.series.removeFirst(scopeName.count)
            }
            guard counts(key, metric: metric, split: query.split, today: today, firstMonth: firstMonth, &cohorts) else {
                continue
            }
            let value = Double(storedValue) / scale * factor
            var names = [(name(key, series: key.series, split: query.split), 1.0)]
            if let (series, rate) = reported(key.series, reporting) {
                names.append((name(key, series: series, split: query.split), rate))
            }
            let offset = key.day - firstDay
            // Realized LTV's denominators count customers, in every currency's series alike.
            let counted = metric == .realizedLTV && key.column.ordinary != .sum && key.column.ordinary != .delta
            for (series, conversion) in names {
                let rate = counted ? 1 : conversion
                switch key.column.ordinary {
                case .sum, .denominator, .sumOnTheDay, .denominatorOnTheDay:
                    guard offset >= 0, offset < holding.count else { continue }
                    if key.column.ordinary == .sum {
                        accumulator.add(value * rate, key: series, bucket: holding[offset])
                    } else {
                        accumulator.denominators[series, default: Array(repeating: 0, count: buckets.count)][
                            holding[offset]] += value * rate
                    }
                case .delta, .deltaOnTheDay:
                    // Holds at the end of its day: from the bucket holding the day (the first, for earlier days).
                    guard offset < holding.count else { continue }
                    accumulator.deltas[series, default: Array(repeating: 0, count: buckets.count + 1)][
                        offset < 0 ? 0 : holding[offset]] += value * rate
                case .denominatorDelta, .denominatorDeltaOnTheDay:
                    // Churn rate's holds from its day's start (the first bucket starting at or after it); the
                    // others' from its day's end, as a snapshot.
                    let bucket =
                        offset < 0
                        ? 0
                        : metric != .churnRate
                            ? (offset < holding.count ? holding[offset] : buckets.count)
                            : offset < holding.count
                                ? holding[offset] + (startsBucket[offset] ? 0 : 1) : buckets.count
                    guard bucket < buckets.count else { continue }
                    accumulator.denominatorDeltas[series, default: Array(repeating: 0, count: buckets.count + 1)][
                        bucket] += value * rate
                }
            }
        }
        // A bucket that has not begun by the query's clock has no snapshot.
        let snapshots = accumulator.instants.count
        accumulator.deltas = accumulator.deltas.mapValues { ended($0, after: snapshots) }
        accumulator.denominatorDeltas = accumulator.denominatorDeltas.mapValues { ended($0, after: snapshots) }
        return accumulator.series()
    }

    /// Whether a row counts in a query, for the metrics whose rows the query chooses among: a cohort of the first
    /// bucket's month or later (``MetricName/cohorts``, ``MetricName/realizedLTV``, the month last in the series);
    /// customers whose conversion window closed before the clock's day (``MetricName/conversionToPaying``); the
    /// movements classified for the query's split (``MetricName/mrrMovement``).
    /// The dimensions a rollup row names or collapses to `*`.
    public static let rowDimensions: [MetricSplit] = [.product, .storefront, .offerType]

    /// Which of `metric`'s rows a query split by `split` reads, for one dimension: those with it collapsed to `*`
    /// (`true`), those naming it (`false`), or either (`nil`). MRR movement keeps a variant per split (its dimension
    /// named, the others `*`); the ``collapsed`` metrics a collapsed copy for queries without a split. The one rule
    /// both the database's sums and the in-memory answer apply.
    public static func collapsedRow(_ dimension: MetricSplit, metric: MetricName, split: MetricSplit?) -> Bool? {
        let kept = split == .environment ? nil : split
        if metric == .mrrMovement { return kept != dimension }
        guard collapsed.contains(metric) else { return nil }
        guard let kept else { return dimension == .product ? true : nil }
        return kept == dimension ? false : nil
    }

    static func counts(
        _ key: RollupKey, metric: MetricName, split: MetricSplit?, today: Int, firstMonth: Date,
        _ cohorts: inout [Substring: Bool]
    ) -> Bool {
        for dimension in rowDimensions {
            guard let collapsed = collapsedRow(dimension, metric: metric, split: split) else { continue }
            if (key.value(of: dimension) == "*") != collapsed { return false }
        }
        switch metric {
        case .cohorts, .realizedLTV:
            guard let month = key.series.split(separator: " ").last else { return false }
            if let known = cohorts[month] { return known }
            let included = cohortStart(String(month)).map { $0 >= firstMonth } ?? false
            cohorts[month] = included
            return included
        case .conversionToPaying:
            let window = MetricAccumulator.conversionWindows.first { key.series.hasSuffix($0.suffix) }
            return window.map { key.day < today - Int($0.days) } ?? false
        default: return true
        }
    }

    /// The start of a cohort's month from its name (`2026-01`).
    static func cohortStart(_ name: String) -> Date? {
        let parts = name.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else {
            return nil
        }
        return UTCDate(year: year, month: month, day: 1).start
    }

    /// Runs of changes cut off after the first `count` buckets.
    static func ended(_ deltas: [Double], after count: Int) -> [Double] {
        guard count < deltas.count else { return deltas }
        var result = deltas
        let running = deltas[..<count].reduce(0, +)
        for index in count..<deltas.count { result[index] = 0 }
        result[count] = -running
        return result
    }

    /// A row's series name in a query: the split's value (when the query splits), then the rest.
    static func name(_ key: RollupKey, series: String, split: MetricSplit?) -> String {
        let parts = [split.map { key.value(of: $0) }, series.isEmpty ? nil : series].compactMap { $0 }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    /// The reporting currency's series for a row's series naming a currency (`USD` → `reporting EUR`,
    /// `amount USD` → `amount reporting EUR`, `USD 2026-01` → `reporting EUR 2026-01`), with the rate; `nil` when
    /// it names none or has no rate.
    static func reported(_ series: String, _ reporting: ReportingCurrency?) -> (String, Double)? {
        guard let reporting, !series.isEmpty else { return nil }
        var words = series.split(separator: " ").map(String.init)
        guard
            let position = words.firstIndex(where: { word in
                word.count == 3 && word.allSatisfy { $0.isASCII && $0.isUppercase }
            }), let rate = reporting.rate(for: words[position])
        else { return nil }
        words[position] = "reporting " + reporting.code
        return (words.joined(separator: " "), rate)
    }
}
