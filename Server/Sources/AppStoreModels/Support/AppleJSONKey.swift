import Foundation

/// A coding key spelled at the call site, for Apple's snake_case formats whose dates come in three keys
/// (`expires_date`, `expires_date_ms`, `expires_date_pst`).
public struct AppleJSONKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The key's text.
    public var stringValue: String
    /// Always `nil`: Apple's objects use string keys.
    public var intValue: Int? { nil }

    /// Makes a key from text.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// Integer keys are not used.
    public init?(intValue: Int) { nil }
    /// Makes a key from a literal.
    public init(stringLiteral value: String) { self.stringValue = value }
}

extension KeyedDecodingContainer where Key == AppleJSONKey {
    /// Decodes an optional scalar under any of Apple's spellings.
    func lenient<Value: LenientValue>(_ key: String, as type: Value.Type = Value.self) throws -> Value? {
        try decode(Lenient<Value>.self, forKey: AppleJSONKey(stringValue: key)).wrappedValue
    }

    /// Decodes a verifyReceipt-style date: `<base>_ms` first, else `<base>` (text or, in iOS 6-style data, ms).
    func appleDate(_ base: String) throws -> Date? {
        if let date: Date = try lenient(base + "_ms") { return date }
        return try lenient(base)
    }
}

extension KeyedEncodingContainer where Key == AppleJSONKey {
    /// Writes a scalar as verifyReceipt does: every value a string.
    mutating func appleString(_ value: (some CustomStringConvertible)?, _ key: String) throws {
        guard let value else { return }
        try encode(value.description, forKey: AppleJSONKey(stringValue: key))
    }

    /// Writes a boolean as verifyReceipt does: `"true"` / `"false"`.
    mutating func appleBool(_ value: Bool?, _ key: String) throws {
        try appleString(value.map { $0 ? "true" : "false" }, key)
    }

    /// Writes a date as verifyReceipt does: `<base>`, `<base>_ms` and `<base>_pst`.
    mutating func appleDate(_ date: Date?, _ base: String) throws {
        guard let date else { return }
        try encode(AppleDateFormat.etcGMT(date), forKey: AppleJSONKey(stringValue: base))
        try encode(String(AppleDateFormat.milliseconds(date)), forKey: AppleJSONKey(stringValue: base + "_ms"))
        try encode(PacificTime.format(date), forKey: AppleJSONKey(stringValue: base + "_pst"))
    }
}

/// Formats the `_pst` twin of verifyReceipt dates ("2020-07-22 10:39:08 America/Los_Angeles").
enum PacificTime {
    static func format(_ date: Date) -> String {
        let zone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600)!
        let shifted = date.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: date)))
        return AppleDateFormat.etcGMT(shifted).replacingOccurrences(of: "Etc/GMT", with: "America/Los_Angeles")
    }
}
