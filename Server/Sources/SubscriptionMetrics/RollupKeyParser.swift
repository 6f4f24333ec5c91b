/// The split dimensions of one contribution's periods, each combination numbered once (``coded(_:)``), so the
/// accumulator names a series with a few bytes (``name(_:_:_:)``) and reads it back into a ``RollupKey``
/// (``key(_:metric:column:)``) once however many metrics and columns repeat it.
struct RollupKeyParser {
    /// Each numbered combination: product, storefront (`unknown` when the evidence does not say), environment,
    /// offer type.
    private var dimensions: [[String]] = []
    private var numbers: [[String]: Int] = [:]
    /// The names read so far, their metric, day and column still to be set.
    private var known: [String: RollupKey] = [:]

    /// Separates a name's dimensions from the rest of its series.
    static let separator: Character = "\u{1E}"

    /// Per numbered combination of a period, the numbers of its classifications in MRR movement: one per
    /// ``MetricRollup/movementSplits``, the dimensions that split does not keep (but the environment) as `*`.
    private(set) var movements: [Int: [Int]] = [:]

    /// `timelines` with each period's ``SubscriptionPeriod/rollupDimensions`` set, its combination numbered.
    mutating func coded(_ timelines: [SubscriptionTimeline]) -> [SubscriptionTimeline] {
        timelines.map { timeline in
            var coded = timeline
            for index in coded.periods.indices {
                let period = coded.periods[index]
                let combination = [
                    period.productID, period.storefront ?? "unknown", period.environment, period.offerType,
                ]
                let number = self.number(combination)
                if movements[number] == nil {
                    movements[number] = MetricRollup.movementSplits.map { split in
                        self.number([
                            split == .product ? combination[0] : "*", split == .storefront ? combination[1] : "*",
                            combination[2], split == .offerType ? combination[3] : "*",
                        ])
                    }
                }
                coded.periods[index].rollupDimensions = number
            }
            return coded
        }
    }

    private mutating func number(_ combination: [String]) -> Int {
        if let found = numbers[combination] { return found }
        numbers[combination] = dimensions.count
        dimensions.append(combination)
        return dimensions.count - 1
    }

    /// A series of the period numbered `number`: the number, then the currency and the suffix.
    static func name(_ number: Int, _ currency: String?, _ suffix: String?) -> String {
        var name = String(number)
        name.append(separator)
        if let currency { name += currency }
        if let suffix {
            if currency != nil { name += " " }
            name += suffix
        }
        return name
    }

    /// The key `name` stands for in `metric`'s `column` (its day left at 0 for the caller to set).
    mutating func key(_ name: String, metric: MetricName, column: RollupColumn) -> RollupKey {
        var key = known[name] ?? parse(name)
        if known[name] == nil { known[name] = key }
        key.metric = metric
        key.column = column
        return key
    }

    private func parse(_ name: String) -> RollupKey {
        let halves = name.split(separator: Self.separator, maxSplits: 1, omittingEmptySubsequences: false)
        let number = Int(halves[0]) ?? -1
        let parts = dimensions.indices.contains(number) ? dimensions[number] : Array(repeating: "unknown", count: 4)
        return RollupKey(
            metric: .mrr, day: 0, product: parts[0], storefront: parts[1], environment: parts[2], offerType: parts[3],
            series: halves.count > 1 ? String(halves[1]) : "", column: .sum)
    }
}
