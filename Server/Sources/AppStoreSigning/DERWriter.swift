/// Minimal DER writing: enough to build receipts and PKCS#7 messages in tests and the simulator.
public enum DERWriter {
    /// One TLV with a definite length.
    public static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out = [tag]
        let count = content.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = count
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out.append(contentsOf: lengthBytes)
        }
        return out + content
    }

    /// SEQUENCE.
    public static func sequence(_ items: [[UInt8]]) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    /// SET (items are written in the given order).
    public static func set(_ items: [[UInt8]]) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }
    /// OCTET STRING.
    public static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    /// UTF8String.
    public static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    /// IA5String.
    public static func ia5String(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }
    /// NULL.
    public static let null: [UInt8] = [0x05, 0x00]

    /// INTEGER (minimal two's complement).
    public static func integer(_ value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var remaining = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
            remaining >>= 8
        } while remaining != 0 && remaining != -1
        if value >= 0, bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        if value < 0, bytes[0] & 0x80 == 0 { bytes.insert(0xFF, at: 0) }
        return tlv(0x02, bytes)
    }

    /// INTEGER from unsigned big-endian bytes (serial numbers).
    public static func unsignedInteger(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var body = Array(bytes.drop { $0 == 0 })
        if body.isEmpty || body[0] & 0x80 != 0 { body.insert(0, at: 0) }
        return tlv(0x02, body)
    }

    /// OBJECT IDENTIFIER from dotted text.
    public static func objectIdentifier(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var body: [UInt8] = []
        func base128(_ value: UInt64) -> [UInt8] {
            var out = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 {
                out.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            return out
        }
        body += base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { body += base128(arc) }
        return tlv(0x06, body)
    }

    /// `[n]` context-specific, constructed.
    public static func context(_ number: UInt8, _ content: [UInt8]) -> [UInt8] { tlv(0xA0 | number, content) }
}
