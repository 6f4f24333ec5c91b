import Foundation
import Testing

@testable import SubscriptionMetrics

/// ``UTCDate`` is arithmetic standing in for Foundation's ISO 8601 calendar in UTC: the two agree on every day from
/// 1800 to 2300, on the day, the month's start, the next month's start, the ISO week's Monday and a cohort's name.
@Suite struct UTCDateTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    @Test("every day from 1800 to 2300: the same date, month start, next month, Monday and cohort name as Calendar")
    func everyDay() {
        let first = UTCDate(year: 1800, month: 1, day: 1).dayNumber
        let last = UTCDate(year: 2300, month: 1, day: 1).dayNumber
        #expect(first == -62_091 && last == 120_530)  // as Python's datetime counts them
        var mismatches: [String] = []
        for number in first..<last where mismatches.count < 5 {
            // Mid-day, and the last second of the day: both belong to the day.
            for offset in [43_200.0, 86_399.0] {
                let date = Date(timeIntervalSince1970: Double(number) * 86_400 + offset)
                let parts = Self.calendar.dateComponents([.year, .month, .day], from: date)
                let utc = UTCDate(date)
                let month = Self.calendar.dateInterval(of: .month, for: date)!
                let week = Self.calendar.dateInterval(of: .weekOfYear, for: date)!
                let agrees =
                    (utc.year, utc.month, utc.day) == (parts.year!, parts.month!, parts.day!)
                    && utc.dayNumber == number
                    && MetricInterval.month.start(of: date) == month.start
                    && MetricInterval.month.next(after: month.start) == month.end
                    && MetricInterval.week.start(of: date) == week.start
                    && MetricInterval.week.next(after: week.start) == week.end
                    && MetricAccumulator.monthName(date)
                        == String(format: "%04d-%02d", parts.year!, parts.month!)
                if !agrees { mismatches.append("\(date)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("leap days: 2000 and 2024 have 29 February, 1900 and 2100 do not")
    func leapDays() {
        #expect(UTCDate(dayNumber: UTCDate(year: 2000, month: 2, day: 28).dayNumber + 1).day == 29)
        #expect(UTCDate(dayNumber: UTCDate(year: 2024, month: 2, day: 28).dayNumber + 1).day == 29)
        #expect(UTCDate(dayNumber: UTCDate(year: 1900, month: 2, day: 28).dayNumber + 1).month == 3)
        #expect(UTCDate(dayNumber: UTCDate(year: 2100, month: 2, day: 28).dayNumber + 1).month == 3)
        #expect(UTCDate(dayNumber: 0) == UTCDate(year: 1970, month: 1, day: 1))
        #expect(UTCDate(dayNumber: -1) == UTCDate(year: 1969, month: 12, day: 31))
    }
}
