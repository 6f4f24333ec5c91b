/// One attribute of a receipt payload, kept raw when its type is not one we interpret.
///
/// ```
/// ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }
/// ```
/// Apple adds undocumented attribute types (8, 10, 11, 13, 14, 25, 1707, 1709, 1710, 1714–1718, 1722…);
/// they are kept, never refused.
public struct ReceiptAttribute: Sendable, Hashable {
    /// The attribute type.
    public var type: Int64
    /// The attribute version.
    public var version: Int64
    /// The value's bytes (usually a DER-encoded UTF8String, IA5String or INTEGER).
    public var value: [UInt8]

    /// Makes an attribute.
    /// - Parameters:
    ///   - type: The type.
    ///   - version: The version.
    ///   - value: The raw value.
    public init(type: Int64, version: Int64, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }
}
