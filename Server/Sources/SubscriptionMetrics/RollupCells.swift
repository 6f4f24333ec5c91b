/// What a rollup pass adds (``MetricAccumulator/keyedByDimensions``): per metric, series, column and bucket, the
/// sum of the additions. One table serves every metric a pass counts, with no per-series arrays to allocate, and a
/// series' name is hashed once per addition and kept once, numbered as in the contribution's other passes
/// (``SeriesNames``).
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

    /// The series names, numbered (the contribution's, handed from pass to pass).
    var names: SeriesNames
    /// The sums.
    private(set) var sums: [Cell: Double] = [:]

    /// Makes an empty table with room for `capacity` sums (a renewal's pass adds about a hundred: growing the
    /// table step by step cost more than the additions), numbering series as `names` does.
    init(capacity: Int = 0, names: SeriesNames = SeriesNames()) {
        self.names = names
        sums.reserveCapacity(capacity)
    }

    /// Adds `value` (already weighted) to a cell.
    mutating func add(_ value: Double, metric: MetricName, series name: String, column: RollupColumn, bucket: Int) {
        let series = names.number(name)
        sums[Cell(metric: metric, series: series, column: column, bucket: bucket), default: 0] += value
    }
}

/// Series names numbered in the order they are first seen.
struct SeriesNames {
    /// The names, by number.
    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `name`, numbered now if it is new.
    mutating func number(_ name: String) -> Int {
        if let found = numbers[name] { return found }
        numbers[name] = names.count
        names.append(name)
        return names.count - 1
    }

    /// The name numbered `number`.
    subscript(number: Int) -> String { names[number] }

    /// How many names are numbered.
    var count: Int { names.count }
}
