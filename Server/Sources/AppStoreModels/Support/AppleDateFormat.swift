import CivilCalendar
public import Foundation

/// Parses the date spellings Apple uses on the wire, without `DateFormatter`.
///
/// Apple writes one instant in several ways, and real data mixes them:
/// - milliseconds since 1970 as a number or a string of digits (`"1595439548000"`), fractional in Xcode
///   (`1697679936056.485`);
/// - `"2019-07-01 12:00:00 Etc/GMT"` (verifyReceipt and Notifications V1);
/// - RFC 3339 / ISO 8601: `"2020-11-25T09:48:32Z"` (receipt payloads), `"2020-07-22T18:33:15+0100"`,
///   `"2020-07-22T18:33:15+01:00"`, with optional fractional seconds.
///
/// `"… America/Los_Angeles"` (`_pst`) spellings are rejected: their offset depends on daylight saving time and
/// every such field has a `Etc/GMT` or `_ms` twin.
///
/// The parser works on bytes and allocates nothing, because receipts carry hundreds of dates.
public enum AppleDateFormat {
    /// Parses any of the supported textual spellings.
    /// - Parameter text: The date as Apple wrote it.
    /// - Returns: The instant, or `nil` when `text` is none of the supported spellings.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var copy = String(text)
        return copy.withUTF8 { parse(utf8: $0) }
    }

    /// Parses the supported spellings from UTF-8 bytes.
    /// - Parameter bytes: The date's bytes.
    /// - Returns: The instant, or `nil` when the bytes are none of the supported spellings.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard !bytes.isEmpty else { return nil }
        if let milliseconds = parseMilliseconds(bytes) {
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return parseCalendarDate(bytes)
    }

    /// Parses raw bytes (e.g. an ASN.1 IA5String) as a date.
    /// - Parameter bytes: The date's bytes.
    /// - Returns: The instant, or `nil`.
    public static func parse(bytes: some Collection<UInt8>) -> Date? {
        if let date = bytes.withContiguousStorageIfAvailable({ parse(utf8: $0) }) {
            return date
        }
        return Array(bytes).withUnsafeBufferPointer { parse(utf8: $0) }
    }

    /// Milliseconds since 1970 from a date, as Apple writes `_ms` fields.
    /// - Parameter date: The instant.
    /// - Returns: Whole milliseconds, rounded toward negative infinity.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The `"yyyy-MM-dd HH:mm:ss Etc/GMT"` spelling verifyReceipt uses.
    /// - Parameter date: The instant.
    /// - Returns: The formatted text.
    public static func etcGMT(_ date: Date) -> String {
        let (y, mo, d, h, mi, s) = civil(date)
        return "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2)) \(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2)) Etc/GMT"
    }

    /// The `"yyyy-MM-ddTHH:mm:ssZ"` spelling receipts and our own output use.
    /// - Parameter date: The instant.
    /// - Returns: The formatted text.
    public static func rfc3339(_ date: Date) -> String {
        let (y, mo, d, h, mi, s) = civil(date)
        return "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2))Z"
    }

    /// A `JSONEncoder` date strategy writing ``rfc3339(_:)`` (our own JSON output: the API and `storekeeper state`).
    public static let rfc3339Encoding = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339(date))
    }

    // MARK: - Internals

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func civil(_ date: Date) -> (Int, Int, Int, Int, Int, Int) {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = civilFromDays(days)
        return (y, m, d, rest / 3600, (rest % 3600) / 60, rest % 60)
    }

    /// A number of milliseconds, optionally fractional; no sign, no exponent.
    private static func parseMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var whole: Int64 = 0
        var index = 0
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            guard digits < 16 else { return nil }
            whole = whole * 10 + Int64(bytes[index] &- 48)
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        if index == bytes.count { return Double(whole) }
        guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
        index += 1
        var fraction = 0.0
        var scale = 0.1
        while index < bytes.count {
            guard isDigit(bytes[index]) else { return nil }
            fraction += Double(bytes[index] &- 48) * scale
            scale /= 10
            index += 1
        }
        return Double(whole) + fraction
    }

    private static func parseCalendarDate(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        // yyyy-MM-dd?HH:mm:ss
        guard b.count >= 19,
            let year = number(b, 0, 4), b[4] == UInt8(ascii: "-"),
            let month = number(b, 5, 2), b[7] == UInt8(ascii: "-"),
            let day = number(b, 8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
            let hour = number(b, 11, 2), b[13] == UInt8(ascii: ":"),
            let minute = number(b, 14, 2), b[16] == UInt8(ascii: ":"),
            let second = number(b, 17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, isDigit(b[index]) {
                fraction += Double(b[index] &- 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard let offset = zoneOffset(b, from: index) else { return nil }
        let days = daysFromCivil(year, month, day)
        // A day past its month's end (2026-02-30) names no date: refused, not carried into the next month.
        guard civilFromDays(days) == (year, month, day) else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Seconds east of UTC for the zone suffix starting at `index`.
    private static func zoneOffset(_ b: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        let rest = b.count - index
        if rest == 0 { return 0 }
        if rest == 1, b[index] == UInt8(ascii: "Z") { return 0 }
        if rest == 8, matches(b, index, " Etc/GMT") { return 0 }
        if rest == 4, matches(b, index, " UTC") { return 0 }
        let sign = b[index]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let hours: Int?
        let minutes: Int?
        if rest == 5 {
            hours = number(b, index + 1, 2)
            minutes = number(b, index + 3, 2)
        } else if rest == 6, b[index + 3] == UInt8(ascii: ":") {
            hours = number(b, index + 1, 2)
            minutes = number(b, index + 4, 2)
        } else {
            return nil
        }
        guard let hours, let minutes, hours < 24, minutes < 60 else { return nil }
        let offset = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "+") ? offset : -offset
    }

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, _ index: Int, _ literal: StaticString) -> Bool {
        guard b.count - index == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount where b[index + offset] != pointer[offset] {
            return false
        }
        return true
    }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for index in start..<(start + length) {
            guard isDigit(b[index]) else { return nil }
            value = value * 10 + Int(b[index] &- 48)
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (``CivilCalendar/CivilDate``).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        CivilDate.days(year: year, month: month, day: day)
    }

    /// The proleptic Gregorian date (year, month, day) `days` days after 1970-01-01 (``CivilCalendar/CivilDate``).
    public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let date = CivilDate.fromDays(days)
        return (date.year, date.month, date.day)
    }
}
