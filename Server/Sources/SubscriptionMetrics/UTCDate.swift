import CivilCalendar
import Foundation

/// A UTC calendar date counted by arithmetic (``CivilCalendar/CivilDate``), not by `Calendar`: metrics ask for
/// the month or week holding a date once per customer and metric on every write, and Foundation's calendar costs
/// microseconds an answer. Proleptic Gregorian, as `Calendar(identifier: .iso8601)` in UTC is (a spec compares the
/// two day by day).
struct UTCDate: Sendable, Hashable {
    /// The year.
    var year: Int
    /// The month, 1 to 12.
    var month: Int
    /// The day of the month, 1 to 31.
    var day: Int

    /// The UTC date of day `number` counted from 1970-01-01 (negative before it).
    init(dayNumber number: Int) {
        (year, month, day) = CivilDate.fromDays(number)
    }

    /// The UTC date holding `date`.
    init(_ date: Date) { self.init(dayNumber: MetricRollup.day(of: date)) }

    /// The date's day counted from 1970-01-01.
    var dayNumber: Int { CivilDate.days(year: year, month: month, day: day) }

    /// The first day of the date's month.
    var monthStart: UTCDate { UTCDate(year: year, month: month, day: 1) }

    /// The first day of the next month.
    var nextMonthStart: UTCDate {
        month == 12 ? UTCDate(year: year + 1, month: 1, day: 1) : UTCDate(year: year, month: month + 1, day: 1)
    }

    /// The Monday starting the ISO week holding day `number` (1970-01-01 was a Thursday).
    static func weekStart(ofDay number: Int) -> Int {
        let weekday = ((number + 3) % 7 + 7) % 7  // 0 on Monday
        return number - weekday
    }

    /// The instant the date begins, in UTC.
    var start: Date { MetricRollup.start(ofDay: dayNumber) }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
}
