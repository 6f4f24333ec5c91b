import Crypto
import Foundation

/// SHA-256 as lowercase hex: the ids of stored evidence, API key hashes, V1 notification ids.
public enum HexDigest {
    static let digits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `text`'s UTF-8, in lowercase hex.
    /// - Parameter text: What to hash.
    /// - Returns: 64 hex digits.
    public static func sha256(_ text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// Bytes in lowercase hex, two digits each.
    /// - Parameter bytes: The bytes.
    /// - Returns: Their hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        write(bytes)
    }

    /// Raw bytes in lowercase hex (the same as ``hex(_:)-(Sequence<UInt8>)``, compiled for raw bytes here: callers in
    /// other modules would otherwise run the unspecialised generic loop, as signing each webhook delivery did).
    /// - Parameter bytes: The bytes.
    /// - Returns: Their hex.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        write(bytes)
    }

    @inline(__always)
    static func write(_ bytes: some Sequence<UInt8>) -> String {
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
