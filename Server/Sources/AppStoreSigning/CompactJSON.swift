public import Foundation
import StoreKeeperWire

/// JSON text for the payloads we sign and the bodies we send: keys sorted by their bytes, no whitespace, `/` not
/// escaped, UTF-8 as is. One pass over the value, without Foundation's per-character string writer (the
/// simulator writes every notification, and a notification carries kilobytes of nested tokens).
///
/// Values may be `String`, `Bool`, the integer types, `Double`, `NSNull`, and arrays and `[String: Any]`
/// dictionaries of them; anything else (a bridged `NSNumber`, a `Date`) is handed to `JSONSerialization` whole.
public enum CompactJSON {
    /// The JSON text of `object`.
    /// - Parameter object: A dictionary of JSON values.
    /// - Returns: Its UTF-8 bytes (`{}` when not even `JSONSerialization` can write it).
    public static func data(_ object: [String: Any]) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        if write(object, into: &output) { return Data(output) }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    /// Appends `value`; `false` when it holds something this writer does not know.
    static func write(_ value: Any, into output: inout [UInt8]) -> Bool {
        switch value {
        case let string as String:
            JSONWriter.appendString(string, to: &output)
        case let dictionary as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
                .enumerated()
            {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard write(dictionary[key]!, into: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                guard write(element, into: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        default:
            guard let scalar = scalarText(value) else { return false }
            output.append(contentsOf: scalar.utf8)
        }
        return true
    }

    /// Booleans, integers, doubles (an integral one as an integer, as `JSONSerialization` writes it) and null —
    /// native Swift values only, told apart by their exact type.
    static func scalarText(_ value: Any) -> String? {
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(Bool.self): (value as! Bool) ? "true" : "false"
        case ObjectIdentifier(Int.self): String(value as! Int)
        case ObjectIdentifier(Int64.self): String(value as! Int64)
        case ObjectIdentifier(Int32.self): String(value as! Int32)
        case ObjectIdentifier(UInt64.self): String(value as! UInt64)
        case ObjectIdentifier(UInt32.self): String(value as! UInt32)
        case ObjectIdentifier(Double.self):
            doubleText(value as! Double)
        case ObjectIdentifier(NSNull.self): "null"
        default: nil
        }
    }

    static func doubleText(_ double: Double) -> String? {
        guard double.isFinite else { return nil }
        if double == double.rounded(), abs(double) < 9_007_199_254_740_992 { return String(Int64(double)) }
        return "\(double)"
    }
}
