import StoreKeeperWire

/// A decoded JWS header: `alg` and the `x5c` chain.
public struct JWSHeader: Sendable {
    /// The `alg` value.
    public let algorithm: String?
    /// The `x5c` certificates as a cache key (DER, leaf first).
    public let chainKey: ChainKey
    /// The whole header.
    public let json: JSONValue

    /// Decodes a base64url header segment.
    /// - Parameter encoded: The segment's bytes.
    /// - Throws: ``VerificationError/Code/malformed``.
    public init(encoded: ArraySlice<UInt8>) throws {
        guard let bytes = encoded.withUnsafeBufferPointer({ Base64.decode($0) }), !bytes.isEmpty else {
            throw VerificationError(.malformed, "JWS header is not base64url")
        }
        let header: JSONValue
        do { header = try JSONValue.parse(bytes) } catch let error as VerificationError {
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
        algorithm = header["alg"]?.stringValue
        chainKey = ChainKey(chain)
        json = header
    }
}
