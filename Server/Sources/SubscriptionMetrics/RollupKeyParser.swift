/// The split dimensions of one contribution's periods, each combination numbered once (``coded(_:)``), so the
/// accumulator names a series with a few bytes (``name(_:_:_:)``), a contribution's rows are counted under numbers
/// (``RollupRow``), and each series is read back into a ``RollupKey`` (``key(_:)``) once however many metrics,
/// days and columns repeat it.
struct RollupKeyParser {
    /// Each numbered combination: product, storefront (`unknown` when the evidence does not say), environment,
    /// offer type.
    private var dimensions: [[String]] = []
    private var numbers: [[String]: Int] = [:]
    /// Every series name numbered, and its key once read.
    var names = SeriesNames()
    private var parsed: [RollupKey?] = []
    /// Per series number, the number of its collapsed series (``whole(_:)``).
    private var wholes: [Int: Int] = [:]
    /// The environment scopes named so far (``scope(_:)``).
    private var scopes: [String] = []

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
                // A subscription's periods mostly share their dimensions: compared, not hashed again.
                if index > 0, Self.sameDimensions(period, coded.periods[index - 1]) {
                    coded.periods[index].rollupDimensions = coded.periods[index - 1].rollupDimensions
                    continue
                }
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

    /// Whether two periods have the same split dimensions.
    static func sameDimensions(_ one: SubscriptionPeriod, _ other: SubscriptionPeriod) -> Bool {
        one.productID == other.productID && one.storefront == other.storefront
            && one.environment == other.environment && one.offerType == other.offerType
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

    /// The number of the series numbered `name` with its product, storefront and offer type collapsed to `*`
    /// (``MetricRollup/collapsed``).
    mutating func whole(_ name: Int) -> Int {
        if let found = wholes[name] { return found }
        let key = parsedName(name)
        let dimensions = number(["*", "*", key.environment, "*"])
        let found = names.number(String(dimensions) + String(Self.separator) + key.series)
        wholes[name] = found
        return found
    }

    /// The number of an environment scope's name (``MetricRollup/scope(_:)``).
    mutating func scope(_ name: String) -> Int {
        if let found = scopes.firstIndex(of: name) { return found }
        scopes.append(name)
        return scopes.count - 1
    }

    /// The key a row stands for.
    mutating func key(_ row: RollupRow) -> RollupKey {
        var key = parsedName(row.name)
        key.metric = row.metric
        key.column = row.column
        key.day = row.day
        if row.scope >= 0 { key.series = scopes[row.scope] + MetricRollup.scopeSeparator + key.series }
        return key
    }

    /// The key of the series numbered `name`, its metric, day and column still to be set (read once).
    private mutating func parsedName(_ name: Int) -> RollupKey {
        if parsed.count < names.count { parsed += Array(repeating: nil, count: names.count - parsed.count) }
        if let found = parsed[name] { return found }
        let key = parse(names[name])
        parsed[name] = key
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

/// A row of a contribution while it is counted (``MetricRollup``): integers only, so summing and regrouping rows
/// hashes a few numbers; each becomes a ``RollupKey`` once, at the end (``RollupKeyParser/key(_:)``).
struct RollupRow: Hashable {
    /// The metric.
    var metric: MetricName
    /// The UTC day.
    var day: Int
    /// Which of the metric's inputs.
    var column: RollupColumn
    /// The series' number (``RollupKeyParser/names``: the same in every pass of a contribution).
    var name: Int
    /// The environment scope's number (``RollupKeyParser/scope(_:)``), -1 for a metric without scopes.
    var scope: Int
}
