/// Where an addition is kept: a series' bucket in the tables a query lays out, or a rollup pass's cells.
extension MetricAccumulator {
    /// Adds `value` (already ``weighted(_:)``) to `column` of the series `key` at `bucket`: in the table of that
    /// input (runs' tables have a slot after the last bucket, where a run that reaches the end stops), or with
    /// ``keyedByDimensions`` in ``cells`` under the metric being counted.
    mutating func record(_ value: Double, _ column: RollupColumn, key: String, bucket: Int) {
        if keyedByDimensions {
            cells.add(value, metric: query.name, series: key, column: column, bucket: bucket)
            return
        }
        switch column {
        case .sum: sums[key, default: Array(repeating: 0, count: buckets.count)][bucket] += value
        case .denominator: denominators[key, default: Array(repeating: 0, count: buckets.count)][bucket] += value
        case .delta: deltas[key, default: Array(repeating: 0, count: buckets.count + 1)][bucket] += value
        case .denominatorDelta:
            denominatorDeltas[key, default: Array(repeating: 0, count: buckets.count + 1)][bucket] += value
        case .sumOnTheDay, .denominatorOnTheDay, .deltaOnTheDay, .denominatorDeltaOnTheDay:
            preconditionFailure("an accumulator adds to the ordinary columns only")
        }
    }
}
