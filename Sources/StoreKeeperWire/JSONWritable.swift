/// A value ``JSONWriter`` writes directly, byte for byte as `JSONEncoder` with sorted keys writes it: the type
/// lists its members once, in its `CodingKeys`, and answers for each key in an exhaustive `switch`, so no key is
/// spelled twice or forgotten and the order is the keys' own (``JSONKeys``).
public protocol JSONWritable {
    /// The keys (the type's `CodingKeys`).
    associatedtype JSONKey: CodingKey & CaseIterable & Sendable

    /// The keys in the order the encoder writes them, made once per type (`static let jsonKeys = JSONKeys<…>()`).
    static var jsonKeys: JSONKeys<JSONKey> { get }

    /// Writes the value of the member `key` (its key is written already); calls ``JSONWriter/omit()`` for a
    /// member the encoder leaves out.
    func writeJSONMember(_ key: JSONKey, to writer: inout JSONWriter)
}

/// A type's keys sorted as `JSONEncoder`'s `.sortedKeys` sorts them, each with its quoted JSON made once.
public struct JSONKeys<Key: CodingKey & CaseIterable & Sendable>: Sendable {
    /// Each key and its JSON (`"name"`), in order.
    let members: [(key: Key, quoted: [UInt8])]

    /// The keys of `Key`, sorted by their wire names.
    public init() {
        members = Key.allCases.sorted { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }.map {
            var quoted: [UInt8] = []
            JSONWriter.appendString($0.stringValue, to: &quoted)
            return ($0, quoted)
        }
    }
}

extension JSONWriter {
    /// Writes `value` as an object: every member in key order, less those it omits.
    public mutating func value<Value: JSONWritable>(_ value: Value) {
        append(UInt8(ascii: "{"))
        var first = true
        for (key, quoted) in Value.jsonKeys.members {
            let mark = bytes.count
            if !first { append(UInt8(ascii: ",")) }
            append(contentsOf: quoted)
            append(UInt8(ascii: ":"))
            isOmitting = false
            value.writeJSONMember(key, to: &self)
            if isOmitting {
                truncate(to: mark)
                isOmitting = false
            } else {
                first = false
            }
        }
        append(UInt8(ascii: "}"))
        isOmitting = false
        separated()
    }

    /// Writes `value`, or `null`.
    public mutating func value<Value: JSONWritable>(_ value: Value?) {
        guard let value else { return null() }
        self.value(value)
    }

    /// Writes `values` as an array of objects.
    public mutating func value<Value: JSONWritable>(_ values: [Value]) {
        array(values) { writer, element in writer.value(element) }
    }

    /// Writes `strings` as an array of strings.
    public mutating func value(_ strings: [String]) {
        array(strings) { writer, string in writer.value(string) }
    }

    /// Leaves out the member being written (its key is taken back): for an absent optional the encoder omits.
    public mutating func omit() { isOmitting = true }

    /// The exact JSON of `value`, or `nil` when only `JSONEncoder` can be sure to write it (a date out of range).
    /// - Parameters:
    ///   - value: The value.
    ///   - capacity: About how many bytes it takes.
    public static func exactJSON<Value: JSONWritable>(_ value: Value, capacity: Int = 1_024) -> [UInt8]? {
        var writer = JSONWriter(capacity: capacity)
        writer.value(value)
        return writer.isExact ? writer.bytes : nil
    }
}
