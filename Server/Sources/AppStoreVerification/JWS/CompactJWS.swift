import Foundation
import StoreKeeperWire

/// A compact JWS (`header.payload.signature`) split and decoded, not yet verified.
///
/// Only what App Store tokens use is accepted: a JSON header with `alg` and an `x5c` array of base64 DER
/// certificates, a JSON payload, and a 64-byte ES256 signature (`r ‖ s`).
public struct CompactJWS: Sendable {
    /// The UTF-8 bytes that were signed: `header.payload` exactly as they appear in the token.
    public let signingInput: ArraySlice<UInt8>
    /// The `alg` header value.
    public let algorithm: String?
    /// The `x5c` certificates, DER, leaf first.
    public let certificateChain: [[UInt8]]
    /// The decoded payload bytes (JSON).
    public let payload: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]
    /// The decoded header.
    public let header: JSONValue

    /// The largest token accepted, in bytes; App Store tokens are a few kilobytes.
    public static let maximumLength = 256 * 1024

    /// The chain's cache key.
    public let chainKey: ChainKey

    /// Splits and decodes a token.
    /// - Parameters:
    ///   - token: The compact serialisation.
    ///   - headerCache: Where parsed headers are remembered; tokens from one signing certificate share a header.
    /// - Throws: ``VerificationError/Code/malformed`` naming the part that is wrong,
    ///   ``VerificationError/Code/inputTooLarge`` for oversized input.
    public init(_ token: some StringProtocol, headerCache: JWSHeaderCache? = nil) throws {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw VerificationError(.inputTooLarge, "JWS of \(bytes.count) bytes exceeds \(Self.maximumLength)")
        }
        let dots = Self.dots(in: bytes, upTo: 3)
        guard dots.count <= 2 else { throw VerificationError(.malformed, "JWS has more than three parts") }
        guard dots.count == 2 else {
            throw VerificationError(.malformed, "JWS has \(dots.count + 1) part(s); compact JWS has three")
        }
        let headerText = bytes[0..<dots[0]]
        let payloadText = bytes[(dots[0] + 1)..<dots[1]]
        let signatureText = bytes[(dots[1] + 1)...]
        guard let payload = payloadText.withUnsafeBufferPointer({ Base64.decode($0) }) else {
            throw VerificationError(.malformed, "JWS payload is not base64url")
        }
        guard let signature = signatureText.withUnsafeBufferPointer({ Base64.decode($0) }) else {
            throw VerificationError(.malformed, "JWS signature is not base64url")
        }
        let parsed: JWSHeader
        if let headerCache, let hit = headerCache.header(for: headerText) {
            parsed = hit
        } else {
            parsed = try JWSHeader(encoded: headerText)
            headerCache?.store(parsed, for: headerText)
        }
        self.signingInput = bytes[0..<dots[1]]
        self.algorithm = parsed.algorithm
        self.certificateChain = parsed.chainKey.certificates
        self.chainKey = parsed.chainKey
        self.payload = payload
        self.signature = signature
        self.header = parsed.json
    }

    /// The offsets of the first `limit` dots in `bytes` (a token is kilobytes long: found with `memchr`).
    static func dots(in bytes: [UInt8], upTo limit: Int) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var found: [Int] = []
            var offset = 0
            while found.count < limit, offset < buffer.count,
                let hit = memchr(base + offset, Int32(UInt8(ascii: ".")), buffer.count - offset)
            {
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                found.append(index)
                offset = index + 1
            }
            return found
        }
    }
}
