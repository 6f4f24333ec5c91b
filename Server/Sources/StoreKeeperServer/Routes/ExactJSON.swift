import AppStoreVerification
import Foundation
import StoreKeeperAPI

/// The one rule for a free-form JSON value a body carries (an offering's `metadata`), read from the strict
/// parser's tree, where every number is still its text: each is kept as the same number (a whole one within 64
/// bits stays whole, one a double holds as written is a double, any other up to 38 significant digits a decimal),
/// and anything else is refused naming its path — never rounded, flushed to 0 or turned into a 500 when the
/// answer is written.
enum ExactJSON {
    /// The most significant digits a number keeps (`Decimal`'s).
    static let significantDigits = 38

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

    /// A number as written (`text`, as the parser kept it; ``StoreKeeperAPI/JSONValue/init(exactNumber:)``
    /// decides), or why it cannot be kept.
    static func number(_ text: String, codingPath: [any CodingKey]) throws -> StoreKeeperAPI.JSONValue {
        if let kept = StoreKeeperAPI.JSONValue(exactNumber: text) { return kept }
        let why =
            switch Double(text) {
            case let number? where !number.isFinite: "is out of range"
            case 0?: "is too small: it would read as 0"
            default: "has more significant digits than can be kept (at most \(significantDigits))"
            }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath,
                debugDescription: "\(text.prefix(40)) \(why); send it as a string to keep it as written"))
    }
}
