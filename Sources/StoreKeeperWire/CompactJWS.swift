/// The one builder of compact JWS and JWT (`header.payload.signature`, each part base64url): App Store Server API
/// tokens, promotional-offer and eligibility signatures, and the simulator's signed data. The header is written by
/// ``JSONWriter`` from typed fields, never by string interpolation; the signature comes from the caller (ES256 keys
/// live in swift-crypto, which this module does not import).
public enum CompactJWS {
    /// A JOSE header: `alg`, then `kid`, `typ` and `x5c` when given (in that order, which is also key order).
    public struct Header: Sendable, Equatable {
        /// The algorithm (`ES256`; tests forge others).
        public var algorithm: String
        /// The key id (`kid`), for tokens verified with a key the receiver holds.
        public var keyID: String?
        /// The type (`typ`, `JWT` for tokens).
        public var type: String?
        /// The certificate chain (`x5c`, DER, leaf first), for data verified against a root.
        public var chain: [[UInt8]]?

        /// A header.
        /// - Parameters:
        ///   - algorithm: `alg` (default `ES256`).
        ///   - keyID: `kid`.
        ///   - type: `typ`.
        ///   - chain: `x5c` as DER certificates, leaf first.
        public init(algorithm: String = "ES256", keyID: String? = nil, type: String? = nil, chain: [[UInt8]]? = nil) {
            self.algorithm = algorithm
            self.keyID = keyID
            self.type = type
            self.chain = chain
        }

        /// The header's JSON.
        public var json: [UInt8] {
            var writer = JSONWriter(capacity: 64 + (chain?.reduce(0) { $0 + $1.count * 4 / 3 + 4 } ?? 0))
            writer.object { writer in
                writer.key("alg")
                writer.value(algorithm)
                if let keyID {
                    writer.key("kid")
                    writer.value(keyID)
                }
                if let type {
                    writer.key("typ")
                    writer.value(type)
                }
                if let chain {
                    writer.key("x5c")
                    writer.array(chain) { writer, certificate in writer.value(Base64.standardEncode(certificate)) }
                }
            }
            return writer.bytes
        }

        /// The header segment (base64url of ``json``); a signer of many tokens under one header makes it once.
        public var encoded: String { Base64.urlEncode(json) }
    }

    /// A compact JWS of `payload` under a header segment made by ``Header/encoded``.
    /// - Parameters:
    ///   - payload: The payload's bytes (JSON).
    ///   - encodedHeader: The header segment.
    ///   - sign: Signs the signing input (`header.payload` as UTF-8) and returns the raw signature (`r || s` for
    ///     ES256).
    /// - Returns: The token.
    public static func make(
        payload: some Sequence<UInt8>, encodedHeader: String, sign: ([UInt8]) throws -> [UInt8]
    ) rethrows -> String {
        let input = encodedHeader + "." + Base64.urlEncode(payload)
        return input + "." + Base64.urlEncode(try sign(Array(input.utf8)))
    }

    /// A compact JWS of `payload` under `header`.
    /// - Parameters:
    ///   - payload: The payload's bytes (JSON).
    ///   - header: The JOSE header.
    ///   - sign: Signs the signing input and returns the raw signature.
    /// - Returns: The token.
    public static func make(payload: some Sequence<UInt8>, header: Header, sign: ([UInt8]) throws -> [UInt8])
        rethrows -> String
    {
        try make(payload: payload, encodedHeader: header.encoded, sign: sign)
    }
}
