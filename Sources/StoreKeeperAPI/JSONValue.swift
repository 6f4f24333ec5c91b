public import Foundation

/// Any JSON value, kept as the owner wrote it (an offering's `metadata`: paywall copy, colours, feature lists).
/// Whole numbers stay whole (`3`, not `3.0`); other numbers are doubles, or decimals where a double would change
/// them (`123456789012345678901234567890`, `2.12345678901234567891`); see ``init(exactNumber:)``.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// A whole number that fits 64 bits.
    case integer(Int64)
    /// Any other number a double holds as written.
    case number(Double)
    /// A number neither 64 bits nor a double holds as written, kept exactly (up to 38 significant digits).
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The field of an object, if this is one and has it.
    public subscript(field: String) -> JSONValue? {
        if case .object(let fields) = self { fields[field] } else { nil }
    }

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let whole = try? container.decode(Int64.self) {
            self = .integer(whole)
        } else if let number = try? container.decode(Double.self) {
            let exact = (try? container.decode(Decimal.self)).flatMap { JSONValue(exactNumber: "\($0)") }
            self = exact ?? .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value as its JSON type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .boolean(let flag): try container.encode(flag)
        case .integer(let whole): try container.encode(whole)
        case .number(let number): try container.encode(number)
        case .decimal(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }
}
