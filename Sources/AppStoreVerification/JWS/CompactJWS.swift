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

    /// Splits and decodes a token.
    /// - Parameter token: The compact serialisation.
    /// - Throws: ``VerificationError/Code/malformed`` naming the part that is wrong,
    ///   ``VerificationError/Code/inputTooLarge`` for oversized input.
    public init(_ token: some StringProtocol) throws {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw VerificationError(.inputTooLarge, "JWS of \(bytes.count) bytes exceeds \(Self.maximumLength)")
        }
        var dots: [Int] = []
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(index)
            guard dots.count <= 2 else { throw VerificationError(.malformed, "JWS has more than three parts") }
        }
        guard dots.count == 2 else {
            throw VerificationError(.malformed, "JWS has \(dots.count + 1) part(s); compact JWS has three")
        }
        let headerText = bytes[0..<dots[0]]
        let payloadText = bytes[(dots[0] + 1)..<dots[1]]
        let signatureText = bytes[(dots[1] + 1)...]
        guard let headerBytes = headerText.withUnsafeBufferPointer({ Base64.decode($0) }), !headerBytes.isEmpty else {
            throw VerificationError(.malformed, "JWS header is not base64url")
        }
        guard let payload = payloadText.withUnsafeBufferPointer({ Base64.decode($0) }) else {
            throw VerificationError(.malformed, "JWS payload is not base64url")
        }
        guard let signature = signatureText.withUnsafeBufferPointer({ Base64.decode($0) }) else {
            throw VerificationError(.malformed, "JWS signature is not base64url")
        }
        let header: JSONValue
        do { header = try JSONValue.parse(headerBytes) } catch let error as VerificationError {
            throw VerificationError(.malformed, "JWS header: \(error.reason)")
        }
        guard case .object = header else { throw VerificationError(.malformed, "JWS header is not a JSON object") }
        var chain: [[UInt8]] = []
        if let x5c = header["x5c"] {
            guard case .array(let items) = x5c, items.count <= 8 else {
                throw VerificationError(.malformed, "JWS header x5c is not an array of at most 8 certificates")
            }
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue, let der = Base64.decode(text), !der.isEmpty else {
                    throw VerificationError(.malformed, "JWS header x5c[\(index)] is not base64 DER")
                }
                chain.append(der)
            }
        }
        self.signingInput = bytes[0..<dots[1]]
        self.algorithm = header["alg"]?.stringValue
        self.certificateChain = chain
        self.payload = payload
        self.signature = signature
        self.header = header
    }
}
