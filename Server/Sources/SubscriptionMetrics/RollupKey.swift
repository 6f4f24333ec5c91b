/// Where one number of a project's metric rollups is kept: a metric's input on one UTC day for one combination of
/// every split dimension (``MetricRollup``). A customer's contribution and a project's rollups are both maps from
/// these keys to values, so a write adds the difference of two maps.
public struct RollupKey: Sendable, Hashable, Comparable {
    /// The metric whose input it is (``MetricName/arr`` is answered from ``MetricName/mrr``'s).
    public var metric: MetricName
    /// The UTC day, counted from 1970-01-01.
    public var day: Int
    /// The product.
    public var product: String
    /// The storefront (`unknown` when the evidence does not say).
    public var storefront: String
    /// `Production`, `Sandbox`…
    public var environment: String
    /// The offer's kind in snake case (`none` without one).
    public var offerType: String
    /// The rest of the series' name: the currency and what the metric adds (`USD`, `count`, `amount EUR`,
    /// `voluntary`), empty when nothing.
    public var series: String
    /// Which of the metric's inputs.
    public var column: RollupColumn

    /// Makes a key.
    public init(
        metric: MetricName, day: Int, product: String, storefront: String, environment: String, offerType: String,
        series: String, column: RollupColumn
    ) {
        self.metric = metric
        self.day = day
        self.product = product
        self.storefront = storefront
        self.environment = environment
        self.offerType = offerType
        self.series = series
        self.column = column
    }

    /// The value of a split dimension in this key.
    public func value(of split: MetricSplit) -> String {
        switch split {
        case .product: product
        case .storefront: storefront
        case .environment: environment
        case .offerType: offerType
        case .rule, .responseKind: "none"
        }
    }

    /// Orders keys by every field (statements write rows in one order, so concurrent writers cannot deadlock).
    public static func < (lhs: RollupKey, rhs: RollupKey) -> Bool {
        // Field by field, each compared for order only where it differs (an equality check is a byte compare;
        // every write sorts its keys, and most neighbours share their first fields): the order of the tuple
        // (metric, day, product, storefront, environment, offer type, series, column).
        if lhs.metric != rhs.metric { return lhs.metric.rawValue < rhs.metric.rawValue }
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.product != rhs.product { return lhs.product < rhs.product }
        if lhs.storefront != rhs.storefront { return lhs.storefront < rhs.storefront }
        if lhs.environment != rhs.environment { return lhs.environment < rhs.environment }
        if lhs.offerType != rhs.offerType { return lhs.offerType < rhs.offerType }
        if lhs.series != rhs.series { return lhs.series < rhs.series }
        return lhs.column.rawValue < rhs.column.rawValue
    }
}

/// Which input of a metric a rollup value is, as ``MetricAccumulator`` keeps them.
public enum RollupColumn: Int, Sendable, Hashable, CaseIterable {
    /// Added to the bucket holding the day (a flow, a ratio's numerator).
    case sum = 0
    /// A ratio's denominator, added to the bucket holding the day.
    case denominator = 1
    /// A snapshot's change: it holds at the end of the day and every later day.
    case delta = 2
    /// A ratio's denominator changing as a snapshot taken at each day's start: it holds from the day's start on.
    case denominatorDelta = 3
    /// What ``sum`` changes by when the row's day is the query's (a subscription set to renew that day).
    case sumOnTheDay = 4
    /// What ``denominator`` changes by when the row's day is the query's.
    case denominatorOnTheDay = 5
    /// What ``delta`` changes by when the row's day is the query's.
    case deltaOnTheDay = 6
    /// What ``denominatorDelta`` changes by when the row's day is the query's.
    case denominatorDeltaOnTheDay = 7

    /// The column holding this one's change on the query's day (`nil` for those columns themselves).
    var onTheDay: RollupColumn? {
        switch self {
        case .sum: .sumOnTheDay
        case .denominator: .denominatorOnTheDay
        case .delta: .deltaOnTheDay
        case .denominatorDelta: .denominatorDeltaOnTheDay
        default: nil
        }
    }

    /// The column this one changes on the query's day (itself for the ordinary columns).
    var ordinary: RollupColumn {
        switch self {
        case .sumOnTheDay: .sum
        case .denominatorOnTheDay: .denominator
        case .deltaOnTheDay: .delta
        case .denominatorDeltaOnTheDay: .denominatorDelta
        default: self
        }
    }
}
