import Foundation

/// Stores raw evidence without its repeated parts, and rebuilds it byte for byte.
///
/// Every JWS Apple (or the simulator) signs carries the same certificate chain in its header, and a V2 notification
/// carries three: its own, and those of the signed transaction and renewal info nested (base64url-encoded again)
/// in its payload. ``compact(_:)`` replaces each JWS header segment of at least ``smallestPart`` characters by a
/// reference to a part stored once (by SHA-256), and each payload segment that holds such a JWS by its decoded
/// text, compacted the same way; ``expand(_:parts:)`` rebuilds the original. A body is only stored compacted when
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
        public var description: String { reason }
    }

    /// The compacted form of `raw`, or `nil` when nothing in it repeats (or it cannot be rebuilt exactly).
    /// - Parameter raw: The raw evidence.
    /// - Returns: The body and its parts.
    public static func compact(_ raw: String) -> Compacted? {
        guard !raw.unicodeScalars.contains(where: { $0.value < 4 }) else { return nil }
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
        var scalars = Array(body.unicodeScalars)[...]
        let text = try expandUntilEnd(&scalars, parts: parts, nested: false)
        return text
    }

    /// The part digests a compacted body refers to.
    public static func references(_ body: String) -> Set<String> {
        var found = Set<String>()
        var scalars = Array(body.unicodeScalars)[...]
        while let index = scalars.firstIndex(where: { $0 == "\u{1}" }) {
            let digest = String(String.UnicodeScalarView(scalars[(index + 1)...].prefix(64)))
            found.insert(digest)
            scalars = scalars[(index + 1)...]
        }
        return found
    }

    static func expandUntilEnd(_ scalars: inout ArraySlice<Unicode.Scalar>, parts: (String) -> String?, nested: Bool)
        throws -> String
    {
        var output = String.UnicodeScalarView()
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            switch scalar {
            case "\u{1}":
                let digest = String(String.UnicodeScalarView(scalars.prefix(64)))
                guard digest.count == 64 else { throw Problem(reason: "a part reference is cut short") }
                scalars = scalars.dropFirst(64)
                guard let part = parts(digest) else { throw Problem(reason: "part \(digest) is not stored") }
                output.append(contentsOf: part.unicodeScalars)
            case "\u{2}":
                let inner = try expandUntilEnd(&scalars, parts: parts, nested: true)
                output.append(contentsOf: base64URL(Data(inner.utf8)).unicodeScalars)
            case "\u{3}":
                guard nested else { throw Problem(reason: "a payload ends that never began") }
                return String(output)
            default:
                output.append(scalar)
            }
        }
        guard !nested else { throw Problem(reason: "a payload never ends") }
        return String(output)
    }

    /// `text` with every JWS in it compacted (scanned as UTF-8 bytes: tokens are ASCII).
    static func compactText(_ text: String, parts: inout [String: String]) -> String {
        let bytes = Array(text.utf8)
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
                let token = String(decoding: bytes[start..<end], as: UTF8.self)
                output.append(contentsOf: compactToken(token, parts: &parts).utf8)
            } else {
                output.append(contentsOf: bytes[start..<end])
            }
            start = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A run of base64url characters and dots: compacted when it is a JWS with a large header.
    static func compactToken(_ token: String, parts: inout [String: String]) -> String {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].utf8.count >= smallestPart, segments[0].hasPrefix("eyJ") else {
            return token
        }
        let header = String(segments[0])
        let digest = HexDigest.sha256(header)
        parts[digest] = header
        var payload = String(segments[1])
        if let decoded = decodeBase64URL(payload), base64URL(decoded) == payload,
            let inner = String(data: decoded, encoding: .utf8), !inner.unicodeScalars.contains(where: { $0.value < 4 })
        {
            var innerParts: [String: String] = [:]
            let compacted = compactText(inner, parts: &innerParts)
            if !innerParts.isEmpty {
                parts.merge(innerParts) { first, _ in first }
                payload = "\u{2}" + compacted + "\u{3}"
            }
        }
        return "\u{1}" + digest + "." + payload + "." + segments[2]
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
