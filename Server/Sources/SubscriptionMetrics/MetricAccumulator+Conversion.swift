import Foundation

/// ``MetricName/conversionToPaying``: of the customers first seen in a bucket (their first period in the counted
/// environments began in it — a free trial's start counts), the share with a paid period (price above zero, not a
/// free trial) beginning within 7 days (series `7d`) and within 30 days (`30d`) of that first start. A customer
/// counts in a series only once its window has closed by the server's clock, so a recent bucket holds the
/// customers whose answer is known, never a share diluted by customers who still have time.
extension MetricAccumulator {
    /// The windows, in days, with their series' suffix.
    static let conversionWindows: [(days: Double, suffix: String)] = [(7, "7d"), (30, "30d")]

    /// Adds one customer (all its timelines).
    mutating func addConversion(_ timelines: [SubscriptionTimeline]) {
        let periods = timelines.flatMap(\.periods).filter { counts($0) }.sorted { $0.start < $1.start }
        guard let first = periods.first else { return }
        let paid = periods.first { !$0.isTrial && $0.price > 0 }
        for window in Self.conversionWindows {
            let end = first.start.addingTimeInterval(window.days * 86_400)
            guard windowClosed(end) else { continue }
            let converted = paid.map { $0.start <= end } ?? false
            addRatio(converted ? 1 : 0, key: key(first, suffix: window.suffix), at: first.start)
        }
    }

    /// Whether a window ending at `end` has closed: by `now`, or with ``MetricQuery/dayClock`` before the start
    /// of the clock's day (so whole days of customers are counted at once).
    func windowClosed(_ end: Date) -> Bool {
        query.dayClock ? end < clockEnd.addingTimeInterval(-86_400) : end <= query.now
    }
}
