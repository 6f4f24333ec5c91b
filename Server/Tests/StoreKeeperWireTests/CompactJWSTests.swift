import Crypto
import Foundation
import StoreKeeperWire
import Testing

/// ``CompactJWS`` is the one builder of compact JWS and JWT: a typed header written as JSON (never by
/// interpolation, so a hostile key id cannot add members), base64url parts, and a signature that verifies.
@Suite struct CompactJWSTests {
    static func decodeSegment(_ segment: Substring) throws -> [String: Any] {
        let bytes = try #require(String(segment).utf8.withContiguousStorageIfAvailable { Base64.decode($0) } ?? nil)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func aTokenCarriesItsHeaderAndPayloadAndItsSignatureVerifies() throws {
        let key = P256.Signing.PrivateKey()
        let token = try CompactJWS.make(
            payload: Array(#"{"aud":"appstoreconnect-v1"}"#.utf8), header: .init(keyID: "KEY123", type: "JWT")
        ) { Array(try key.signature(for: $0).rawRepresentation) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(
            NSDictionary(dictionary: try Self.decodeSegment(parts[0])) == [
                "alg": "ES256", "kid": "KEY123", "typ": "JWT",
            ])
        #expect(try Self.decodeSegment(parts[1])["aud"] as? String == "appstoreconnect-v1")
        let signature = try #require(
            String(parts[2]).utf8.withContiguousStorageIfAvailable { Base64.decode($0) } ?? nil)
        #expect(
            key.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature),
                for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"), "base64url without padding")
    }

    @Test func aHostileKeyIDStaysOneString() throws {
        let header = CompactJWS.Header(keyID: #"x","alg":"none"#, type: "JWT")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(header.json)) as? [String: Any])
        #expect(decoded["alg"] as? String == "ES256")
        #expect(decoded["kid"] as? String == #"x","alg":"none"#)
    }

    @Test func aChainIsWrittenAsX5CInStandardBase64() throws {
        let header = CompactJWS.Header(chain: [[0xFB, 0xFF], [1, 2, 3]])
        #expect(String(decoding: header.json, as: UTF8.self) == #"{"alg":"ES256","x5c":["+/8=","AQID"]}"#)
    }
}
