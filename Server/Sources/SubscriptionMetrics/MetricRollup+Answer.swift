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
        // Per day from the first bucket's: the bucket holding it.
        var holding: [Int] = []
        for (index, bucket) in buckets.enumerated() {
            for _ in day(of: bucket.start)..<day(of: bucket.end) { holding.append(index) }
        }
        let reporting = query.reporting
        let today = day(of: query.now)
        for (key, stored) in rows where key.metric == metric && query.environments.contains(key.environment) {
            // Nothing after the clock's day counts; a change on the day only when that day is the query's.
            guard key.day <= today, key.column.ordinary == key.column || key.day == today else { continue }
            let value = Double(stored) / scale * factor
            var names = [(name(key, series: key.series, split: query.split), 1.0)]
            if let (series, rate) = reported(key.series, reporting) {
                names.append((name(key, series: series, split: query.split), rate))
            }
            let offset = key.day - firstDay
            for (series, rate) in names {
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
                    // Holds from its day's start: from the first bucket starting at or after it.
                    let bucket =
                        offset <= 0
                        ? 0 : (buckets.firstIndex { day(of: $0.start) >= key.day } ?? buckets.count)
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
    /// `amount USD` → `amount reporting EUR`), with the rate; `nil` when it names none or has no rate.
    static func reported(_ series: String, _ reporting: ReportingCurrency?) -> (String, Double)? {
        guard let reporting, !series.isEmpty else { return nil }
        let words = series.split(separator: " ").map(String.init)
        guard let currency = words.last, currency.count == 3, currency.allSatisfy(\.isUppercase),
            let rate = reporting.rate(for: currency)
        else { return nil }
        return ((words.dropLast() + ["reporting " + reporting.code]).joined(separator: " "), rate)
    }
}
