import Foundation

/// Stores raw evidence without its repeated parts, and rebuilds it byte for byte.
///
/// Every JWS Apple (or the simulator) signs carries the same certificate chain in its header, and a V2 notification
/// carries three: its own, and those of the signed transaction and renewal info nested (base64url-encoded again)
/// in its payload. ``compact(_:)`` replaces each JWS header segment of at least ``smallestPart`` characters by a
/// reference to a part stored once (by SHA-256), and that JWS's payload segment by its decoded text (when it is
/// canonical base64url of UTF-8), compacted the same way; ``expand(_:parts:)`` rebuilds the original. A body is only stored compacted when
/// expanding it gives back exactly the raw bytes.
///
/// Compacted form: the raw text, with `U+0001` + 64 hex digits for a part, and `U+0002` + compacted text + `U+0003`
/// for a payload to base64url-encode again (raw evidence is JSON, JWS or base64 and holds no control character;
/// a body that does is stored as it is).
public enum RawEvidenceCodec {
    /// The shortest header segment worth storing apart (a chain-less header is a few dozen characters).
    public static let smallestPart = 200

    /// A compacted body and the parts it refers to.
    public struct Compacted: Equatable, Sendable {
        /// The compacted text.
        public var body: String
        /// The parts by SHA-256 (hex).
        public var parts: [String: String]
    }

    /// Thrown when a compacted body is malformed or names a part that is not stored.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// The compacted form of `raw`, or `nil` when nothing in it repeats (or it cannot be rebuilt exactly).
    /// - Parameter raw: The raw evidence.
    /// - Returns: The body and its parts.
    public static func compact(_ raw: String) -> Compacted? {
        guard !raw.utf8.contains(where: { $0 < 4 }) else { return nil }
        var parts: [String: String] = [:]
        let body = compactText(raw, parts: &parts)
        guard !parts.isEmpty, let rebuilt = try? expand(body, parts: { parts[$0] }), rebuilt == raw else {
            return nil
        }
        return Compacted(body: body, parts: parts)
    }

    /// Rebuilds the raw evidence.
    /// - Parameters:
    ///   - body: A compacted body.
    ///   - parts: Looks up a part by its SHA-256.
    /// - Returns: The raw text.
    /// - Throws: ``Problem`` when a part is missing or the body is malformed.
    public static func expand(_ body: String, parts: (String) -> String?) throws -> String {
        let bytes = Array(body.utf8)
        var index = 0
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        try expand(bytes, &index, into: &output, parts: parts, nested: false)
        return String(decoding: output, as: UTF8.self)
    }

    /// The part digests a compacted body refers to.
    public static func references(_ body: String) -> Set<String> {
        let bytes = Array(body.utf8)
        var found = Set<String>()
        for (index, byte) in bytes.enumerated() where byte == 1 && index + 64 < bytes.count {
            found.insert(String(decoding: bytes[(index + 1)...(index + 64)], as: UTF8.self))
        }
        return found
    }

    static func expand(
        _ bytes: [UInt8], _ index: inout Int, into output: inout [UInt8], parts: (String) -> String?, nested: Bool
    ) throws {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 1:
                guard index + 64 <= bytes.count else { throw Problem(reason: "a part reference is cut short") }
                let digest = String(decoding: bytes[index..<(index + 64)], as: UTF8.self)
                index += 64
                guard let part = parts(digest) else { throw Problem(reason: "part \(digest) is not stored") }
                output.append(contentsOf: part.utf8)
            case 2:
                var inner: [UInt8] = []
                try expand(bytes, &index, into: &inner, parts: parts, nested: true)
                output.append(contentsOf: base64URL(inner))
            case 3:
                guard nested else { throw Problem(reason: "a payload ends that never began") }
                return
            default:
                output.append(byte)
            }
        }
        guard !nested else { throw Problem(reason: "a payload never ends") }
    }

    /// `text` with every JWS in it compacted.
    static func compactText(_ text: String, parts: inout [String: String]) -> String {
        String(decoding: compactBytes(Array(text.utf8), parts: &parts), as: UTF8.self)
    }

    /// UTF-8 `bytes` with every JWS in them compacted (tokens are ASCII).
    static func compactBytes(_ bytes: [UInt8], parts: inout [String: String]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var start = 0
        func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default: false
            }
        }
        while start < bytes.count {
            guard isTokenByte(bytes[start]) else {
                output.append(bytes[start])
                start += 1
                continue
            }
            var end = start
            while end < bytes.count, isTokenByte(bytes[end]) { end += 1 }
            // Only a run long enough to hold a large header can be worth compacting.
            if end - start > smallestPart {
                output += compactToken(bytes[start..<end], parts: &parts)
            } else {
                output.append(contentsOf: bytes[start..<end])
            }
            start = end
        }
        return output
    }

    /// A run of base64url characters and dots: compacted when it is a JWS with a large header.
    static func compactToken(_ token: ArraySlice<UInt8>, parts: inout [String: String]) -> [UInt8] {
        let dots = token.indices.filter { token[$0] == UInt8(ascii: ".") }
        guard dots.count == 2, dots[0] - token.startIndex >= smallestPart,
            token.starts(with: "eyJ".utf8)
        else { return Array(token) }
        let headerBytes = token[token.startIndex..<dots[0]]
        let payloadBytes = token[(dots[0] + 1)..<dots[1]]
        let header = String(decoding: headerBytes, as: UTF8.self)
        let digest = HexDigest.sha256(header)
        parts[digest] = header
        var output = [1] + Array(digest.utf8) + [UInt8(ascii: ".")]
        if let decoded = decodeBase64URL(payloadBytes), base64URL(decoded).elementsEqual(payloadBytes),
            !decoded.contains(where: { $0 < 4 }), String(validating: decoded, as: UTF8.self) != nil
        {
            // Kept decoded (a quarter smaller than its base64url), its own nested tokens compacted too.
            output += [2] + compactBytes(decoded, parts: &parts) + [3]
        } else {
            output += payloadBytes
        }
        output += token[dots[1]...]
        return output
    }

    /// Unpadded base64url of `bytes` (as ASCII bytes).
    static func base64URL(_ bytes: [UInt8]) -> [UInt8] {
        var encoded = Array(Data(bytes).base64EncodedData())
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices {
            if encoded[index] == UInt8(ascii: "+") {
                encoded[index] = UInt8(ascii: "-")
            } else if encoded[index] == UInt8(ascii: "/") {
                encoded[index] = UInt8(ascii: "_")
            }
        }
        return encoded
    }

    /// The bytes of an unpadded base64url text, or `nil` when it is not base64url.
    static func decodeBase64URL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var base64 = Array(text)
        for index in base64.indices {
            if base64[index] == UInt8(ascii: "-") {
                base64[index] = UInt8(ascii: "+")
            } else if base64[index] == UInt8(ascii: "_") {
                base64[index] = UInt8(ascii: "/")
            }
        }
        base64 += Array(repeating: UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: Data(base64)).map(Array.init)
    }
}
