import Foundation

/// A closed-looking set of values that Apple extends every year.
///
/// Conforming enums list their known raw values in ``known`` and keep anything else in an
/// `unknown(raw)` case, so a new notification type or environment never makes decoding fail.
/// Raw values decode leniently: an integer enum accepts `2` and `"2"`.
public protocol OpenEnum: Codable, Sendable, Hashable, CustomStringConvertible, LenientValue {
    /// The raw wire type (`String` or `Int`).
    associatedtype RawValue: LenientValue & Codable & CustomStringConvertible

    /// Every known case with its raw value.
    static var known: [(Self, RawValue)] { get }

    /// Makes the catch-all case for a raw value Apple added after this code was written.
    static func unknown(_ raw: RawValue) -> Self

    /// The raw value when this is the catch-all case.
    var unknownRawValue: RawValue? { get }
}

extension OpenEnum {
    /// Maps a raw value to its case, or to `unknown(raw)`.
    /// - Parameter rawValue: The wire value.
    @inlinable public init(rawValue: RawValue) {
        self = Self.known.first { $0.1 == rawValue }?.0 ?? .unknown(rawValue)
    }

    /// The wire value of this case.
    @inlinable public var rawValue: RawValue {
        if let raw = unknownRawValue { return raw }
        // Every known case is listed in `known` by construction.
        return Self.known.first { $0.0 == self }!.1
    }

    /// Whether Apple sent a value this version does not know.
    public var isUnknown: Bool { unknownRawValue != nil }

    /// The raw value as text.
    public var description: String { rawValue.description }

    /// Decodes any raw value; unknown ones become `unknown(raw)`.
    public init(from decoder: any Decoder) throws {
        try self.init(leniently: decoder.singleValueContainer())
    }

    /// Encodes the raw value.
    public func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        try rawValue.encodeCanonically(to: &container)
    }

    /// Decodes the raw value leniently, then maps it.
    public init(leniently container: any SingleValueDecodingContainer) throws {
        self.init(rawValue: try RawValue(leniently: container))
    }

    /// Encodes the raw value.
    public func encodeCanonically(to container: inout any SingleValueEncodingContainer) throws {
        try rawValue.encodeCanonically(to: &container)
    }
}
