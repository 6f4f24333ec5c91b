import CivilCalendar
public import Foundation

/// The one byte-level JSON writer: writes JSON the way the API's encoder (`JSONEncoder` with sorted keys, slashes
/// unescaped, ISO 8601 dates) writes it — the same bytes — for the documents written on every change and every
/// uncached read, where the generic encoder cost more than the rest of the work, and for the JSON StoreKeeper
/// signs. Members are written in the order given: the callers give them in key order (a test compares every
/// document with `JSONEncoder`'s). ``appendString(_:to:escapingSlashes:)`` is the one JSON string escaper.
///
/// A date it cannot be sure to write the same way (before 1970 or after 9999) clears ``isExact``; callers then
/// fall back to `JSONEncoder`.
public struct JSONWriter: Sendable {
    /// The JSON so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether every value was written as `JSONEncoder` writes it.
    public private(set) var isExact = true
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false
    /// Whether the member being written is to be left out (``omit()``).
    var isOmitting = false

    /// A writer with room for about `capacity` bytes.
    public init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    /// Writes `{`, then `members`, then `}`.
    public mutating func object(_ members: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, each element, then `]`.
    public mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
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
    public mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = true
    }

    /// A string, or `null`.
    public mutating func value(_ text: String?) {
        guard let text else { return null() }
        Self.appendString(text, to: &bytes)
    }

    /// An integer, or `null`.
    public mutating func value<Number: BinaryInteger>(_ number: Number?) {
        guard let number else { return null() }
        bytes += String(number).utf8
    }

    /// A boolean, or `null`.
    public mutating func value(_ flag: Bool?) {
        guard let flag else { return null() }
        bytes += (flag ? "true" : "false").utf8
    }

    /// A date as `yyyy-MM-ddTHH:mm:ssZ` (whole seconds, rounded down, as the ISO 8601 strategy writes it), or
    /// `null`.
    public mutating func value(_ date: Date?) {
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
    public mutating func value(_ map: [String: String]) {
        object { writer in
            for key in map.keys.sorted() {
                writer.key(key)
                writer.value(map[key])
            }
        }
    }

    /// `null`.
    public mutating func null() { bytes += "null".utf8 }

    /// Appends one byte (for ``JSONWritable`` objects).
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends bytes (for ``JSONWritable`` objects).
    mutating func append(contentsOf more: [UInt8]) { bytes += more }

    /// Takes back what was written after `count` bytes.
    mutating func truncate(to count: Int) { bytes.removeSubrange(count...) }

    /// Notes that a value was written: what follows in an array or object needs a comma.
    mutating func separated() { needsComma = true }

    /// Writes a value that is JSON already (a member's value written elsewhere).
    public mutating func raw(_ json: some Sequence<UInt8>) { bytes += json }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it: quote and backslash, the short
    /// escapes, `\u00XX` for other control characters, and `/` as `\/` only when `escapingSlashes` (the encoder's
    /// default; the API's encoder and signed JSON leave slashes alone). Runs that need no escape are copied whole.
    /// - Parameters:
    ///   - text: The string.
    ///   - output: Where its JSON goes.
    ///   - escapingSlashes: Whether `/` is written `\/`.
    public static func appendString(_ text: String, to output: inout [UInt8], escapingSlashes: Bool = false) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || (escapingSlashes && byte == UInt8(ascii: "/"))
            {
                output.append(contentsOf: utf8[runStart..<index])
                appendEscape(byte, to: &output)
                runStart = index + 1
            }
            output.append(contentsOf: utf8[runStart...])
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The escape of one byte that needs one.
    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output += "u00".utf8
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
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
        let (year, month, day) = CivilDate.fromDays(seconds / 86_400)
        return (year, month, day, rest / 3_600, rest % 3_600 / 60, rest % 60)
    }
}
