import AppStoreVerification
import Foundation

/// Reads a request body once, strictly: the JSON is parsed by a parser that refuses a key given twice (a proxy
/// would take the last, `JSONDecoder` the first), the type is decoded from that tree, and every field the type
/// did not read — at any depth, a typo or a newer client's field that would silently vanish — is refused by its
/// path. A type's free-form maps (attributes, metadata) read every key they hold, so their keys always pass.
///
/// A wrong type, a missing field or a bad date is a `DecodingError` with the field's coding path, as
/// `JSONDecoder` reports it; dates are ISO 8601 (``StoreKeeperAPI/APICoding``'s strategy).
struct StrictJSONDecoder {
    /// A field the body's type does not read.
    struct UnknownField: Error, Hashable {
        /// Where it is: `rules[0].when.colour`.
        var path: String
        /// The fields the object it is in may hold, when its type lists them.
        var expected: [String]
    }

    /// `data` as `T`.
    /// - Throws: `VerificationError` when `data` is not JSON (or repeats a key); ``UnknownField``; `DecodingError`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tree = try JSONValue.parse(data)
        let reads = Reads()
        let value = try T(from: TreeDecoder(value: tree, codingPath: [], reads: reads))
        if let unknown = reads.firstUnknown() { throw unknown }
        return value
    }

    /// What each object's keyed containers were asked for.
    final class Reads {
        struct Object {
            var path: [any CodingKey]
            var keys: [String]
            var expected: [String]
            var read: Set<String> = []
        }

        var objects: [Object] = []

        func register(path: [any CodingKey], keys: [String], expected: [String]) -> Int {
            objects.append(Object(path: path, keys: keys, expected: expected))
            return objects.count - 1
        }

        func firstUnknown() -> UnknownField? {
            // Several containers may read one object (a type and its wrapper): a key is read if any of them read it.
            var read: [String: Set<String>] = [:]
            for object in objects { read[APICall.path(object.path), default: []].formUnion(object.read) }
            for object in objects {
                let path = APICall.path(object.path)
                if let key = object.keys.first(where: { !(read[path]?.contains($0) ?? false) }) {
                    return UnknownField(path: path.isEmpty ? key : "\(path).\(key)", expected: object.expected)
                }
            }
            return nil
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = "\(intValue)"
            self.intValue = intValue
        }
    }

    struct TreeDecoder: Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        let reads: Reads
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func mismatch(_ expected: Any.Type, _ what: String) -> DecodingError {
            .typeMismatch(expected, .init(codingPath: codingPath, debugDescription: "expected \(what)"))
        }

        func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
            guard case .object(let members) = value else { throw mismatch([String: Any].self, "an object") }
            let expected = (K.self as? any CaseIterable.Type).map { Self.names(of: $0) } ?? []
            let index = reads.register(path: codingPath, keys: members.map(\.0), expected: expected)
            return KeyedDecodingContainer(
                Keyed<K>(
                    members: Dictionary(members, uniquingKeysWith: { first, _ in first }), codingPath: codingPath,
                    reads: reads, index: index))
        }

        static func names<C: CaseIterable>(of type: C.Type) -> [String] {
            type.allCases.compactMap { ($0 as? any CodingKey)?.stringValue }.sorted()
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch([Any].self, "an array") }
            return Unkeyed(elements: elements, codingPath: codingPath, reads: reads)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }
    }

    struct Keyed<K: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]
        let reads: Reads
        let index: Int

        var allKeys: [K] {
            reads.objects[index].read.formUnion(members.keys)
            return members.keys.compactMap { K(stringValue: $0) }
        }

        func contains(_ key: K) -> Bool { members[key.stringValue] != nil }

        func child(_ key: K) throws -> TreeDecoder {
            reads.objects[index].read.insert(key.stringValue)
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "\(key.stringValue) is required"))
            }
            return TreeDecoder(value: value, codingPath: codingPath + [key], reads: reads)
        }

        func decodeNil(forKey key: K) throws -> Bool {
            reads.objects[index].read.insert(key.stringValue)
            return members[key.stringValue].map { $0 == .null } ?? true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
            try child(key).decodeValue(type)
        }
        func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { try child(key).decodeValue(type) }
        func decode(_ type: String.Type, forKey key: K) throws -> String { try child(key).decodeValue(type) }
        func decode(_ type: Double.Type, forKey key: K) throws -> Double { try child(key).decodeValue(type) }
        func decode(_ type: Float.Type, forKey key: K) throws -> Float { try child(key).decodeValue(type) }
        func decode(_ type: Int.Type, forKey key: K) throws -> Int { try child(key).decodeValue(type) }
        func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { try child(key).decodeValue(type) }
        func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { try child(key).decodeValue(type) }
        func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { try child(key).decodeValue(type) }
        func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { try child(key).decodeValue(type) }
        func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { try child(key).decodeValue(type) }
        func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { try child(key).decodeValue(type) }
        func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { try child(key).decodeValue(type) }
        func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { try child(key).decodeValue(type) }
        func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { try child(key).decodeValue(type) }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T? {
            reads.objects[index].read.insert(key.stringValue)
            guard let value = members[key.stringValue], value != .null else { return nil }
            return try TreeDecoder(value: value, codingPath: codingPath + [key], reads: reads).decodeValue(type)
        }

        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) throws -> KeyedDecodingContainer<N> {
            try child(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            TreeDecoder(value: .object(members.map { ($0.key, $0.value) }), codingPath: codingPath, reads: reads)
        }

        func superDecoder(forKey key: K) throws -> any Decoder { try child(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        let reads: Reads
        var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey], reads: Reads) {
            self.elements = elements
            self.codingPath = codingPath
            self.reads = reads
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        mutating func next() throws -> TreeDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
            }
            defer { currentIndex += 1 }
            return TreeDecoder(
                value: elements[currentIndex], codingPath: codingPath + [Key(intValue: currentIndex)], reads: reads)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decodeValue(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next().decodeValue(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().decodeValue(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next().decodeValue(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeValue(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeValue(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeValue(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeValue(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeValue(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeValue(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeValue(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeValue(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeValue(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeValue(type) }

        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: TreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value == .null }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeValue(type) }
        func decode(_ type: String.Type) throws -> String { try decoder.decodeValue(type) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.decodeValue(type) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.decodeValue(type) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.decodeValue(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeValue(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeValue(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeValue(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeValue(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeValue(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeValue(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeValue(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeValue(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeValue(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
    }
}

extension StrictJSONDecoder.TreeDecoder {
    /// The value as `T`: scalars from the tree (numbers exactly as written), anything else by its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch(String.self, "a string") }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(Bool.self, "true or false") }
            return flag as! T
        case let integer as any FixedWidthInteger.Type:
            guard case .number(let text) = value, let whole = Self.integer(text),
                let exact = Self.exactly(integer, whole)
            else { throw mismatch(type, "an integer") }
            return exact as! T
        case let float as any BinaryFloatingPoint.Type:
            guard case .number(let text) = value, let number = Double(text) else { throw mismatch(type, "a number") }
            return Self.rounded(float, number) as! T
        case is Date.Type:
            guard case .string(let text) = value, let date = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "expected an ISO 8601 date"))
            }
            return date as! T
        default:
            if let exact = try ExactJSON.decode(type, from: value, codingPath: codingPath) { return exact }
            do {
                return try T(from: self)
            } catch DecodingError.typeMismatch(_, let context)
                where context.codingPath.count == codingPath.count
                && (T.self == [String].self || T.self == [String: String].self)
            {
                // A list or map of strings given another shape is named as what it should be ("an array of strings").
                throw DecodingError.typeMismatch(T.self, context)
            }
        }
    }

    static func exactly<I: FixedWidthInteger>(_ type: I.Type, _ whole: Int) -> I? { I(exactly: whole) }

    static func rounded<F: BinaryFloatingPoint>(_ type: F.Type, _ number: Double) -> F { F(number) }

    /// An integer written as one (`3`), or as a number with an integral value (`3.0`, `3e0`), as `JSONDecoder`
    /// reads it.
    static func integer(_ text: String) -> Int? {
        if let exact = Int(text) { return exact }
        guard let number = Double(text), number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }
}
