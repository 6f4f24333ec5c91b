public import Foundation

/// The resolution of a metric's series: calendar days, ISO weeks (from Monday) or calendar months, in UTC.
public enum MetricInterval: String, Sendable, Hashable, CaseIterable, Codable {
    /// A calendar day.
    case day
    /// An ISO week, Monday to Sunday.
    case week
    /// A calendar month.
    case month

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The start of the bucket holding `date`.
    public func start(of date: Date) -> Date {
        let calendar = Self.calendar
        switch self {
        case .day:  // UTC days are 86,400 s: no calendar needed
            return Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        case .week:
            return calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? calendar.startOfDay(for: date)
        case .month: return calendar.dateInterval(of: .month, for: date)?.start ?? calendar.startOfDay(for: date)
        }
    }

    /// The start of the bucket after the one starting at `start`.
    public func next(after start: Date) -> Date {
        let component: Calendar.Component =
            switch self {
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            }
        return Self.calendar.date(byAdding: component, value: 1, to: start) ?? start.addingTimeInterval(86_400)
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
