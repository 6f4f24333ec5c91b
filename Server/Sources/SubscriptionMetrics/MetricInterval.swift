public import Foundation

/// The resolution of a metric's series: calendar days, ISO weeks (from Monday) or calendar months, in UTC.
public enum MetricInterval: String, Sendable, Hashable, CaseIterable, Codable {
    /// A calendar day.
    case day
    /// An ISO week, Monday to Sunday.
    case week
    /// A calendar month.
    case month

    /// The start of the bucket holding `date` (by arithmetic, not a calendar).
    public func start(of date: Date) -> Date {
        switch self {
        case .day: return MetricRollup.start(ofDay: MetricRollup.day(of: date))  // UTC days are 86,400 s
        case .week: return MetricRollup.start(ofDay: UTCDate.weekStart(ofDay: MetricRollup.day(of: date)))
        case .month: return UTCDate(date).monthStart.start
        }
    }

    /// The start of the bucket after the one starting at `start`.
    public func next(after start: Date) -> Date {
        switch self {
        case .day: return start.addingTimeInterval(86_400)
        case .week: return start.addingTimeInterval(7 * 86_400)
        case .month: return UTCDate(start).nextMonthStart.start
        }
    }

    /// The buckets covering `[from, to)`: the first starts at the start of `from`'s bucket.
    public func buckets(from: Date, to: Date) -> [DateInterval] {
        var result: [DateInterval] = []
        var start = self.start(of: from)
        if self == .day {
            // UTC days are all 86,400 s long: no calendar arithmetic per bucket (a rollup walks years of days).
            let count = Int((to.timeIntervalSince(start) / 86_400).rounded(.up))
            result.reserveCapacity(max(0, count))
            for index in 0..<max(0, count) {
                result.append(DateInterval(start: start.addingTimeInterval(Double(index) * 86_400), duration: 86_400))
            }
            return result
        }
        while start < to {
            let end = next(after: start)
            result.append(DateInterval(start: start, end: end))
            start = end
        }
        return result
    }
}
