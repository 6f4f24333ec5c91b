public import Foundation

/// What to compute: one metric over `[from, to)` at a resolution, optionally split, for some environments.
public struct MetricQuery: Sendable, Hashable {
    /// The metric.
    public var name: MetricName
    /// The first instant (its bucket starts at the start of its day, week or month).
    public var from: Date
    /// The end (exclusive).
    public var to: Date
    /// The resolution.
    public var interval: MetricInterval
    /// The dimension each series is for, if any.
    public var split: MetricSplit?
    /// The environments counted (`Production` by default: sandbox purchases are tests, not business).
    public var environments: Set<String>
    /// The server's clock: snapshots are never taken after it, and what has not ended by it has not churned.
    public var now: Date
    /// Also report money (`mrr`, refund amounts) in this currency, converted at its rates. Default none.
    public var reporting: ReportingCurrency?
    /// How proceeds are estimated (``MetricName/proceeds``): the commission rules and the storefronts' taxes.
    public var proceeds = ProceedsRules()
    /// Whether the clock is read by the UTC day, as rollups answer (``MetricRollup``): what happened by the end of
    /// `now`'s day counts, the bucket holding `now` is taken at that day's end, and a subscription set to renew
    /// (its last period not refunded, its end reason `other`) whose access ends that day counts as renewing. Off:
    /// the clock is `now` itself.
    public var dayClock = false

    /// Makes a query.
    public init(
        name: MetricName, from: Date, to: Date, interval: MetricInterval, split: MetricSplit? = nil,
        environments: Set<String> = ["Production"], now: Date
    ) {
        self.name = name
        self.from = from
        self.to = to
        self.interval = interval
        self.split = split
        self.environments = environments
        self.now = now
    }
}
