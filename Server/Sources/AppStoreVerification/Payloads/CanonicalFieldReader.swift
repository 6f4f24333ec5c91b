import AppStoreModels
import Foundation

/// Reads the values of one ``CanonicalPayload``'s fields, remembering whether any was not in canonical form.
///
/// Every reader returns `nil` both for `null` and for a value it declines; ``isCanonical`` tells them apart.
/// It must stay `true` for the payload to be used.
struct CanonicalFieldReader {
    /// Whether every value read so far was `null` or in canonical form.
    private(set) var isCanonical = true

    /// A string.
    mutating func string(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .null: return nil
        default: return decline()
        }
    }

    /// A plain JSON integer (optional minus, no leading zero, no fraction or exponent) that fits 53 bits, so
    /// it is exact as an integer and as a `Double` alike.
    mutating func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let text):
            guard let number = Self.plainInteger(text) else { return decline() }
            return number
        case .null: return nil
        default: return decline()
        }
    }

    /// An `Int`, written as a plain JSON integer.
    mutating func int(_ value: JSONValue) -> Int? {
        integer(value).map { Int($0) }
    }

    /// Milliseconds since 1970 as a plain JSON integer.
    mutating func date(_ value: JSONValue) -> Date? {
        // The same arithmetic as the `Codable` reading of a date (`Double` milliseconds over 1000).
        integer(value).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// `true` or `false`.
    mutating func bool(_ value: JSONValue) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .null: return nil
        default: return decline()
        }
    }

    /// An enumeration Apple extends, from a string or a plain integer (whichever its raw value is).
    mutating func open<Enumeration: OpenEnum>(_ value: JSONValue, as type: Enumeration.Type) -> Enumeration? {
        switch value {
        case .string(let text):
            guard let raw = text as? Enumeration.RawValue else { return decline() }
            return Enumeration(rawValue: raw)
        case .number(let text):
            guard let number = Self.plainInteger(text), let raw = Int(number) as? Enumeration.RawValue else {
                return decline()
            }
            return Enumeration(rawValue: raw)
        case .null: return nil
        default: return decline()
        }
    }

    /// An array of strings.
    mutating func strings(_ value: JSONValue) -> [String]? {
        switch value {
        case .array(let items):
            var texts: [String] = []
            texts.reserveCapacity(items.count)
            for item in items {
                guard case .string(let text) = item else { return decline() }
                texts.append(text)
            }
            return texts
        case .null: return nil
        default: return decline()
        }
    }

    /// A nested object this reader leaves to `JSONDecoder` (`commitmentInfo`): `null` reads as absent, anything
    /// else marks the payload as not canonical.
    mutating func nested(_ value: JSONValue) {
        if case .null = value { return }
        isCanonical = false
    }

    /// Marks the payload as not canonical.
    mutating func decline<Value>() -> Value? {
        isCanonical = false
        return nil
    }

    /// `text` as an integer when it is a plain JSON integer within ±2^53.
    static func plainInteger(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard let first = utf8.first else { return nil }
        let digits = first == UInt8(ascii: "-") ? utf8.dropFirst() : utf8[...]
        guard let lead = digits.first, digits.count <= 16, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            lead != UInt8(ascii: "0") || digits.count == 1, let number = Int64(text), abs(number) <= 1 << 53
        else { return nil }
        return number
    }
}
