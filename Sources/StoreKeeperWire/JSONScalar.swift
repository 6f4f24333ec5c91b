/// One scalar JSON value: a string, an integer or a boolean, stored and answered as that JSON type (a count is
/// `2`, not `"2"`). An event's detail is made of them (`EventDetailValue`); details stored before values were
/// typed read back as strings.
public enum JSONScalar: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral
{
    /// Text (ids are text, even when they are digits).
    case string(String)
    /// A whole number (a count).
    case integer(Int64)
    /// True or false.
    case boolean(Bool)

    /// Makes a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Makes an integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Makes a boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }

    /// Reads a JSON string, integer or boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Writes the value as its JSON type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        }
    }

    /// The value as text: the string itself, the number's digits, `true` or `false`.
    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        }
    }
}
