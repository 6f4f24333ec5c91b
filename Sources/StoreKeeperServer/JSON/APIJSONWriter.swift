import AppStoreModels
import Foundation

/// Writes JSON the way the API's encoder (``StoreKeeperAPI/APICoding``: `JSONEncoder` with sorted keys, slashes
/// unescaped, ISO 8601 dates) writes it — the same bytes — for the documents written on every change and every
/// uncached read, where the generic encoder cost more than the rest of the work. Members are written in the
/// order given: the callers give them in key order (a test compares every document with `JSONEncoder`'s).
///
/// A date it cannot be sure to write the same way (before 1970 or after 9999) clears ``isExact``; callers then
/// fall back to `JSONEncoder`.
struct APIJSONWriter {
    /// The JSON so far.
    private(set) var bytes: [UInt8] = []
    /// Whether every value was written as `JSONEncoder` writes it.
    private(set) var isExact = true
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    /// A writer with room for about `capacity` bytes.
    init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    /// Writes `{`, then `members`, then `}`.
    mutating func object(_ members: (inout APIJSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, each element, then `]`.
    mutating func array<Element>(_ elements: [Element], _ write: (inout APIJSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
            needsComma = true
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member's key (and the comma before it); its value is written next.
    mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = true
    }

    /// A string, or `null`.
    mutating func value(_ text: String?) {
        guard let text else { return null() }
        Self.appendQuoted(text, to: &bytes)
    }

    /// An integer, or `null`.
    mutating func value<Number: BinaryInteger>(_ number: Number?) {
        guard let number else { return null() }
        bytes += String(number).utf8
    }

    /// A boolean, or `null`.
    mutating func value(_ flag: Bool?) {
        guard let flag else { return null() }
        bytes += (flag ? "true" : "false").utf8
    }

    /// A date as `yyyy-MM-ddTHH:mm:ssZ` (whole seconds, rounded down, as the ISO 8601 strategy writes it), or
    /// `null`.
    mutating func value(_ date: Date?) {
        guard let date else { return null() }
        let seconds = date.timeIntervalSince1970
        // Four-digit years after 1970 only: the rest is left to JSONEncoder.
        guard seconds >= 0, seconds < 253_402_300_800 else {
            isExact = false
            return null()
        }
        let parts = Self.civil(Int(seconds.rounded(.down)))
        bytes.append(UInt8(ascii: "\""))
        Self.appendDigits(parts.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(parts.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(parts.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendDigits(parts.hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(parts.minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(parts.second, width: 2, to: &bytes)
        bytes += "Z\"".utf8
    }

    /// A `[String: String]` as an object in key order.
    mutating func value(_ map: [String: String]) {
        object { writer in
            for key in map.keys.sorted() {
                writer.key(key)
                writer.value(map[key])
            }
        }
    }

    /// `null`.
    mutating func null() { bytes += "null".utf8 }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it with slashes unescaped: quote and
    /// backslash, the short escapes, and `\u00XX` for other control characters.
    static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Keys, ids, dates and most names need no escape: copied whole.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                output.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(byte)
                case 0x0A: output += #"\n"#.utf8
                case 0x0D: output += #"\r"#.utf8
                case 0x09: output += #"\t"#.utf8
                case 0x08: output += #"\b"#.utf8
                case 0x0C: output += #"\f"#.utf8
                case 0..<0x20:
                    output += #"\u00"#.utf8
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                default: output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendDigits(_ number: Int, width: Int, to output: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The UTC calendar fields of `seconds` since 1970 (not negative).
    private static func civil(_ seconds: Int) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    ) {
        let rest = seconds % 86_400
        let (year, month, day) = AppleDateFormat.civilFromDays(seconds / 86_400)
        return (year, month, day, rest / 3_600, rest % 3_600 / 60, rest % 60)
    }
}
