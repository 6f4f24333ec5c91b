/// Reads the accumulator's dimension-keyed series names (``MetricRollup/dimensionKey(_:rest:)``) back into
/// ``RollupKey``s, each name parsed once however many metrics and columns of a contribution repeat it.
struct RollupKeyParser {
    /// The names read so far, their metric, day and column still to be set.
    private var known: [String: RollupKey] = [:]

    /// The key `name` stands for in `metric`'s `column` (its day left at 0 for the caller to set).
    mutating func key(_ name: String, metric: MetricName, column: RollupColumn) -> RollupKey {
        var key = known[name] ?? parse(name)
        if known[name] == nil { known[name] = key }
        key.metric = metric
        key.column = column
        return key
    }

    /// Splits a name into its dimensions (`unknown` for one missing) and the rest of its series.
    private func parse(_ name: String) -> RollupKey {
        let halves = name.split(separator: Character(MetricRollup.restSeparator), maxSplits: 1, omittingEmptySubsequences: false)
        let dimensions = halves[0].split(
            separator: Character(MetricRollup.dimensionSeparator), omittingEmptySubsequences: false)
        func part(_ index: Int) -> String { dimensions.indices.contains(index) ? String(dimensions[index]) : "unknown" }
        return RollupKey(
            metric: .mrr, day: 0, product: part(0), storefront: part(1), environment: part(2), offerType: part(3),
            series: halves.count > 1 ? String(halves[1]) : "", column: .sum)
    }
}
