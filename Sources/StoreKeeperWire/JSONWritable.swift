public import Foundation

/// A value written member by member from one statement, its `writeJSONMember(_:to:)`: that switch answers for
/// each key of its `CodingKeys` in an exhaustive `switch`, so no key is spelled twice or forgotten, and both of
/// its writers follow it — ``JSONWriter`` (the bytes, as `JSONEncoder` with sorted keys writes them, in the
/// keys' order, ``JSONKeys``) and `Encodable` (the default ``encode(to:)`` below, for any encoder). A type
/// writes itself one way.
public protocol JSONWritable: Encodable {
    /// The keys (the type's `CodingKeys`).
    associatedtype JSONKey: CodingKey & CaseIterable & Sendable

    /// The keys in the order the encoder writes them, made once per type (`static let jsonKeys = JSONKeys<…>()`).
    static var jsonKeys: JSONKeys<JSONKey> { get }

    /// Gives `sink` the value of the member `key` (its key is given already); calls ``JSONMemberSink/omit()``
    /// for a member left out.
    func writeJSONMember<Sink: JSONMemberSink>(_ key: JSONKey, to sink: inout Sink)
}

extension JSONWritable {
    /// Encodes every member as ``writeJSONMember(_:to:)`` gives it (`null` included, omitted ones left out).
    public func encode(to encoder: any Encoder) throws {
        var sink = JSONEncodingSink(encoder.container(keyedBy: JSONKey.self))
        for key in JSONKey.allCases {
            sink.key = key
            writeJSONMember(key, to: &sink)
        }
        if let failure = sink.failure { throw failure }
    }
}

/// Where a ``JSONWritable`` value's members go: the byte writer (``JSONWriter``) or an encoder's keyed container
/// (``JSONEncodingSink``). One method per kind of value the API's types hold.
public protocol JSONMemberSink {
    /// A string, or `null`.
    mutating func value(_ text: String?)
    /// An integer, or `null`.
    mutating func value<Number: BinaryInteger & Encodable>(_ number: Number?)
    /// A boolean, or `null`.
    mutating func value(_ flag: Bool?)
    /// An instant, or `null`.
    mutating func value(_ date: Date?)
    /// Strings by name.
    mutating func value(_ map: [String: String])
    /// Strings.
    mutating func value(_ strings: [String])
    /// An object, or `null`.
    mutating func value<Value: JSONWritable>(_ value: Value?)
    /// Objects.
    mutating func value<Value: JSONWritable>(_ values: [Value])
    /// Leaves out the member being given.
    mutating func omit()
}

/// The sink of ``JSONWritable/encode(to:)``: each member into an encoder's keyed container, under the key being
/// written; the first error is kept for the caller to throw.
public struct JSONEncodingSink<Key: CodingKey>: JSONMemberSink {
    /// The container.
    var container: KeyedEncodingContainer<Key>
    /// The member being given.
    var key: Key?
    /// The first error encoding a member.
    var failure: (any Error)?

    /// A sink into `container`.
    init(_ container: KeyedEncodingContainer<Key>) { self.container = container }

    /// Runs `encode` on the container under the current key (once no earlier member failed).
    mutating func encode(_ encode: (inout KeyedEncodingContainer<Key>, Key) throws -> Void) {
        guard failure == nil, let key else { return }
        do { try encode(&container, key) } catch { failure = error }
    }

    /// Encodes `value`, or `null`: a present value through the container's own overloads where it has one (the
    /// generic path, through `Optional`, costs JSONEncoder half again as much).
    mutating func encode<Value: Encodable>(
        _ value: Value?, _ write: (inout KeyedEncodingContainer<Key>, Value, Key) throws -> Void
    ) {
        guard let value else { return encode { container, key in try container.encodeNil(forKey: key) } }
        encode { container, key in try write(&container, value, key) }
    }

    /// A string, or `null`.
    public mutating func value(_ text: String?) { encode(text) { try $0.encode($1, forKey: $2) } }
    /// An integer, or `null`.
    public mutating func value<Number: BinaryInteger & Encodable>(_ number: Number?) {
        encode(number) { container, number, key in
            if let whole = Int64(exactly: number) {
                try container.encode(whole, forKey: key)
            } else {
                try container.encode(number, forKey: key)
            }
        }
    }
    /// A boolean, or `null`.
    public mutating func value(_ flag: Bool?) { encode(flag) { try $0.encode($1, forKey: $2) } }
    /// An instant, or `null`.
    public mutating func value(_ date: Date?) { encode(date) { try $0.encode($1, forKey: $2) } }
    /// Strings by name.
    public mutating func value(_ map: [String: String]) { encode(map) { try $0.encode($1, forKey: $2) } }
    /// Strings.
    public mutating func value(_ strings: [String]) { encode(strings) { try $0.encode($1, forKey: $2) } }
    /// An object, or `null`.
    public mutating func value<Value: JSONWritable>(_ value: Value?) { encode(value) { try $0.encode($1, forKey: $2) } }
    /// Objects.
    public mutating func value<Value: JSONWritable>(_ values: [Value]) {
        encode(values) { try $0.encode($1, forKey: $2) }
    }
    /// Leaves the member out: nothing is encoded.
    public mutating func omit() {}
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

extension JSONWriter: JSONMemberSink {
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
