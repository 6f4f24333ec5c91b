import AppStoreSimulator
import AppStoreVerification

/// A control verb's JSON body, read field by field with its type checked: a required field that is missing, or
/// any field of the wrong type, is a 400 naming it (an empty body never means "false" or "0"). Parsed by the
/// project's own `JSONValue`, which keeps JSON's booleans and numbers apart.
struct ControlBody: Sendable {
    /// The parsed object (an empty body is an empty object).
    let object: JSONValue

    /// A field that must be present.
    func required<Value>(_ key: String, _ type: Value.Type) throws -> Value {
        guard let value = try optional(key, type) else {
            throw SimulatorError(.missingField, "\(key) is required (\(Self.name(of: type)))")
        }
        return value
    }

    /// A field that may be absent (or null).
    func optional<Value>(_ key: String, _ type: Value.Type) throws -> Value? {
        guard let raw = object[key], raw != .null else { return nil }
        let value: Any? =
            switch (raw, type) {
            case (.bool(let flag), is Bool.Type): flag
            case (.number(let text), is Int.Type): Int(text)
            case (.number(let text), is Int64.Type): Int64(text)
            case (.string(let text), is String.Type): text
            default: nil
            }
        guard let typed = value as? Value else {
            throw SimulatorError(.invalidField, "\(key) must be \(Self.name(of: type)), not \(Self.describe(raw))")
        }
        return typed
    }

    static func name<Value>(of type: Value.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is String.Type: "a string"
        default: "\(type)"
        }
    }

    /// A short, printable account of a JSON value for an error message.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"\(text.prefix(40))\""
        case .number(let text): String(text.prefix(40))
        case .bool(let flag): String(flag)
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
