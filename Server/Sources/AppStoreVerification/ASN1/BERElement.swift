/// One BER-encoded TLV (tag, length, value) inside a byte buffer, by position.
///
/// ```
/// Element ::= identifier-octets length-octets contents-octets [end-of-contents]
/// ```
/// App receipts are BER, not DER: Xcode writes indefinite lengths (`0x80` … `00 00`), large receipts use
/// three-byte long-form lengths, and OCTET STRINGs may be constructed from chunks. Elements only record
/// ranges; nothing is copied until a value is read.
public struct BERElement: Sendable, Hashable {
    /// The identifier octet: class (2 bits), constructed flag, and a low tag number (0x1F means "high").
    public var identifier: UInt8
    /// The tag number (for high-tag-number form, the decoded number).
    public var tagNumber: UInt32
    /// Where the contents are, excluding any end-of-contents octets.
    public var contents: Range<Int>
    /// Where the whole element is, identifier through end-of-contents.
    public var encoded: Range<Int>

    /// Whether the element contains further elements.
    public var isConstructed: Bool { identifier & 0x20 != 0 }
    /// The tag class: 0 universal, 1 application, 2 context-specific, 3 private.
    public var tagClass: UInt8 { identifier >> 6 }

    /// Whether this is the universal tag `number`.
    public func isUniversal(_ number: UInt32) -> Bool { tagClass == 0 && tagNumber == number }
    /// Whether this is the context-specific tag `[number]`.
    public func isContext(_ number: UInt32) -> Bool { tagClass == 2 && tagNumber == number }

    /// Universal tag numbers used by receipts and CMS.
    public enum Universal {
        /// INTEGER.
        public static let integer: UInt32 = 2
        /// BIT STRING.
        public static let bitString: UInt32 = 3
        /// OCTET STRING.
        public static let octetString: UInt32 = 4
        /// NULL.
        public static let null: UInt32 = 5
        /// OBJECT IDENTIFIER.
        public static let objectIdentifier: UInt32 = 6
        /// UTF8String.
        public static let utf8String: UInt32 = 12
        /// SEQUENCE.
        public static let sequence: UInt32 = 16
        /// SET.
        public static let set: UInt32 = 17
        /// IA5String.
        public static let ia5String: UInt32 = 22
    }
}
