import Foundation
import StoreKeeperWire

/// One JSON object written the way `JSONEncoder` with `.sortedKeys` writes it — members in key order, strings
/// escaped as it escapes them, absent optionals left out — for the few values written on every change, where
/// the generic encoder cost more than everything else about them.
///
/// A value it cannot be sure to write the same way (a `Double` that is not a plain decimal) clears
/// ``isWritable``, and callers fall back to `JSONEncoder`. Strings, integers and booleans always write.
struct SortedJSONObject {
    private var members: [(key: String, value: [UInt8])] = []
    /// Whether every member was written as `JSONEncoder` writes it.
    private(set) var isWritable = true

    /// A string member.
    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        var bytes: [UInt8] = []
        JSONWriter.appendString(value, to: &bytes, escapingSlashes: true)
        members.append((key, bytes))
    }

    /// An integer member.
    mutating func add<Number: BinaryInteger>(_ key: String, _ value: Number?) {
        guard let value else { return }
        members.append((key, Array(String(value).utf8)))
    }

    /// A boolean member.
    mutating func add(_ key: String, _ value: Bool?) {
        guard let value else { return }
        members.append((key, Array((value ? "true" : "false").utf8)))
    }

    /// A date member, as `JSONEncoder`'s default strategy writes it: seconds since 2001-01-01 as a number.
    mutating func add(_ key: String, _ value: Date?) {
        guard let value else { return }
        let seconds = value.timeIntervalSinceReferenceDate
        var text = seconds.description
        // Swift writes the shortest decimal that reads back exactly; an integral value ends in ".0", which
        // JSONEncoder leaves out. Exponents, infinities and NaN are left to JSONEncoder itself.
        guard seconds.isFinite, !text.contains("e") else {
            isWritable = false
            return
        }
        if text.hasSuffix(".0") { text.removeLast(2) }
        members.append((key, Array(text.utf8)))
    }

    /// A member that is already JSON (a nested object), or `nil` to leave it out.
    mutating func add(_ key: String, json value: [UInt8]?) {
        guard let value else { return }
        members.append((key, value))
    }

    /// Marks the object as one to leave to `JSONEncoder`.
    mutating func decline() {
        isWritable = false
    }

    /// The object's JSON (only `JSONEncoder`'s bytes when ``isWritable``).
    var bytes: [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(member.key, to: &output, escapingSlashes: true)
            output.append(UInt8(ascii: ":"))
            output += member.value
        }
        output.append(UInt8(ascii: "}"))
        return output
    }
}
