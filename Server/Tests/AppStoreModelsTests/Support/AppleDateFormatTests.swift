import AppStoreModels
import Foundation
import Testing

/// Every date spelling seen in real Apple data parses to the same instant.
@Suite struct AppleDateFormatTests {
    @Test(
        "spellings of one instant",
        arguments: [
            "1595439548000", "2020-07-22 17:39:08 Etc/GMT", "2020-07-22T17:39:08Z", "2020-07-22T18:39:08+0100",
            "2020-07-22T18:39:08+01:00", "2020-07-22T10:39:08-07:00", "2020-07-22T17:39:08.000Z",
        ])
    func sameInstant(_ text: String) {
        #expect(AppleDateFormat.parse(text) == Date(timeIntervalSince1970: 1_595_439_548))
    }

    @Test("fractional milliseconds from Xcode")
    func fractional() throws {
        let date = try #require(AppleDateFormat.parse("1697679936056.485"))
        #expect(abs(date.timeIntervalSince1970 - 1_697_679_936.056485) < 1e-6)
    }

    @Test(
        "rejects what is not a date",
        arguments: [
            "", "abc", "2020-13-01T00:00:00Z", "2020-07-22 17:39:08 America/Los_Angeles", "2020-07-22T17:39:08+25:00",
            "12345678901234567890", "2020-07-22T17:39", "-5", "1.", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-04-31T12:00:00Z", "1900-02-29T00:00:00Z",
        ])
    func rejects(_ text: String) {
        #expect(AppleDateFormat.parse(text) == nil)
    }

    @Test("the last day of every month is a date, leap days in leap years only")
    func monthEnds() {
        #expect(AppleDateFormat.parse("2024-02-29T00:00:00Z") != nil)
        #expect(AppleDateFormat.parse("2000-02-29T00:00:00Z") != nil)
        for (month, last) in [(1, 31), (3, 31), (4, 30), (6, 30), (9, 30), (11, 30), (12, 31)] {
            let text = "2026-\(month < 10 ? "0" : "")\(month)-\(last)T00:00:00Z"
            #expect(AppleDateFormat.parse(text) != nil, "\(text)")
        }
    }

    @Test("formats round-trip, including Xcode's far-future 4001-01-01")
    func roundTrip() throws {
        for text in ["2020-07-22T17:39:08Z", "4001-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z"] {
            let date = try #require(AppleDateFormat.parse(text))
            #expect(AppleDateFormat.rfc3339(date) == text)
            #expect(AppleDateFormat.parse(AppleDateFormat.etcGMT(date)) == date)
        }
    }
}
