import Foundation

/// An optional wire field decoded with ``LenientValue`` rules: present in any of Apple's spellings, absent,
/// or `null` — all three decode.
///
/// ```swift
/// struct Item: Codable {
///     @Lenient var quantity: Int?      // "1", 1 and a missing key all decode
/// }
/// ```
@propertyWrapper
public struct Lenient<Value: LenientValue>: Sendable, Hashable {
    /// The decoded value, `nil` when the field was absent or `null`.
    public var wrappedValue: Value?

    /// Wraps a value.
    /// - Parameter wrappedValue: The value, or `nil` for an absent field.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension Lenient: Codable {
    /// Decodes `null` as `nil`, anything else through ``LenientValue/init(leniently:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try Value(leniently: container)
    }

    /// Encodes the canonical form, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        if let wrappedValue {
            try wrappedValue.encodeCanonically(to: &container)
        } else {
            try container.encodeNil()
        }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes to an empty ``Lenient`` rather than throwing.
    public func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        try decodeIfPresent(type, forKey: key) ?? Lenient(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// An empty ``Lenient`` is left out rather than written as `null`.
    public mutating func encode<Value>(_ value: Lenient<Value>, forKey key: Key) throws {
        if value.wrappedValue != nil {
            try encodeIfPresent(value, forKey: key)
        }
    }
}
