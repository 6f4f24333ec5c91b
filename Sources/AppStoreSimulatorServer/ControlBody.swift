import AppStoreSimulator
import Foundation

/// A control verb's JSON body, read field by field with its type checked: a required field that is missing, or
/// any field of the wrong type, is a 400 naming it (an empty body never means "false" or "0"). Sendable by hand:
/// the object is never changed after parsing, and JSONSerialization's values are immutable.
struct ControlBody: @unchecked Sendable {
    /// The parsed object (values from `JSONSerialization`).
    let object: [String: Any]

    /// A field that must be present.
    func required<Value>(_ key: String, _ type: Value.Type) throws -> Value {
        guard let value = try optional(key, type) else {
            throw SimulatorError("missing_field", "\(key) is required (\(Self.name(of: type)))")
        }
        return value
    }

    /// A field that may be absent (or null).
    func optional<Value>(_ key: String, _ type: Value.Type) throws -> Value? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        let value: Any?
        switch type {
        case is Bool.Type: value = Self.isBoolean(raw) ? (raw as? Bool) : nil
        case is Int.Type: value = Self.isBoolean(raw) ? nil : raw as? Int
        case is Int64.Type: value = Self.isBoolean(raw) ? nil : (raw as? Int).map { Int64($0) }
        default: value = raw
        }
        guard let typed = value as? Value else {
            throw SimulatorError(
                "invalid_field", "\(key) must be \(Self.name(of: type)), not \(String(describing: raw).prefix(40))")
        }
        return typed
    }

    /// Whether a JSON value is `true` or `false` (JSONSerialization gives numbers and booleans one type).
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func name<Value>(of type: Value.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is String.Type: "a string"
        default: "\(type)"
        }
    }
}
