import AppStoreVerification
import Foundation
import StoreKeeperAPI

/// The one rule for a free-form JSON value a body carries (an offering's `metadata`), read from the strict
/// parser's tree, where every number is still its text: a whole number within 64 bits stays whole, any other
/// number is kept when a double holds it as written (finite, at most 17 significant digits, not a non-zero that
/// would read as 0), and anything else is refused naming its path — never rounded, flushed to 0 or turned into a
/// 500 when the answer is written.
enum ExactJSON {
    /// The most significant digits a double holds as written.
    static let significantDigits = 17

    /// `tree` as `T` when `T` is the API's free-form value, else `nil` (the caller decodes it as usual).
    /// - Throws: `DecodingError.dataCorrupted` at the number's path for a number it cannot keep as written.
    static func decode<T>(_ type: T.Type, from tree: AppStoreVerification.JSONValue, codingPath: [any CodingKey])
        throws -> T?
    {
        guard T.self == StoreKeeperAPI.JSONValue.self else { return nil }
        return try value(tree, codingPath: codingPath) as? T
    }

    /// The API's value for `tree`, numbers judged by ``number(_:codingPath:)``.
    static func value(_ tree: AppStoreVerification.JSONValue, codingPath: [any CodingKey]) throws
        -> StoreKeeperAPI.JSONValue
    {
        switch tree {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .string(let text): return .string(text)
        case .number(let text): return try number(text, codingPath: codingPath)
        case .array(let items):
            return .array(
                try items.enumerated().map { index, item in
                    try value(item, codingPath: codingPath + [StrictJSONDecoder.Key(intValue: index)])
                })
        case .object(let members):
            var fields: [String: StoreKeeperAPI.JSONValue] = [:]
            for (name, member) in members {
                fields[name] = try value(member, codingPath: codingPath + [StrictJSONDecoder.Key(stringValue: name)])
            }
            return .object(fields)
        }
    }

    /// A number as written (`text`, as the parser kept it), or why it cannot be kept.
    static func number(_ text: String, codingPath: [any CodingKey]) throws -> StoreKeeperAPI.JSONValue {
        if let whole = Int64(text) { return .integer(whole) }
        func refused(_ why: String) -> DecodingError {
            .dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "\(text.prefix(40)) \(why); send it as a string to keep it as written"))
        }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        let significant = digits.reversed().drop { $0 == "0" }.count
        guard let number = Double(text), number.isFinite else { throw refused("is out of range") }
        guard mantissa.contains(".") || mantissa.count < text.count else {
            throw refused("is a whole number beyond 64 bits")
        }
        guard number != 0 || significant == 0 else { throw refused("is too small: it would read as 0") }
        guard significant <= significantDigits else {
            throw refused("has more than \(significantDigits) significant digits: a double would round it")
        }
        // A whole value written as `3.0` or `3e0` stays whole, as before.
        if number.rounded() == number, abs(number) < 9.0e15 { return .integer(Int64(number)) }
        return .number(number)
    }
}
