/// What a rollup pass adds (``MetricAccumulator/keyedByDimensions``): per metric, series, column and bucket, the
/// sum of the additions. One table serves every metric a pass counts, with no per-series arrays to allocate, and a
/// series' name is hashed once per addition and kept once.
struct RollupCells {
    /// Where one sum is kept.
    struct Cell: Hashable {
        /// The metric that added it.
        var metric: MetricName
        /// The series' number in ``names``.
        var series: Int
        /// Which of the metric's inputs.
        var column: RollupColumn
        /// The bucket (for runs, the bucket after the last is where a run ends).
        var bucket: Int
    }

    /// Every series name added to, by number.
    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]
    /// The sums.
    private(set) var sums: [Cell: Double] = [:]

    /// Makes an empty table with room for `capacity` sums (a renewal's pass adds about a hundred: growing the
    /// table step by step cost more than the additions).
    init(capacity: Int = 0) {
        sums.reserveCapacity(capacity)
        numbers.reserveCapacity(capacity / 8)
    }

    /// Adds `value` (already weighted) to a cell.
    mutating func add(_ value: Double, metric: MetricName, series name: String, column: RollupColumn, bucket: Int) {
        let series: Int
        if let found = numbers[name] {
            series = found
        } else {
            series = names.count
            numbers[name] = series
            names.append(name)
        }
        sums[Cell(metric: metric, series: series, column: column, bucket: bucket), default: 0] += value
    }
}
