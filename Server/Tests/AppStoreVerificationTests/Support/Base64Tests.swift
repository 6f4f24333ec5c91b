import AppStoreVerification
import Foundation
import StoreKeeperWire
import Testing

/// Base64 both ways, checked against Foundation's encoder for every tail length: standard (padded, `+/`) and
/// base64url (unpadded, `-_`, as JWS writes it), each read back by our decoder.
@Suite struct Base64Tests {
    @Test("every length from 0 to 70 bytes encodes as Foundation does, and decodes back", arguments: 0...70)
    func roundTrip(_ length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let foundation = Data(bytes).base64EncodedString()
        #expect(Base64.standardEncode(bytes) == foundation)
        let url = foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(Base64.urlEncode(bytes) == url)
        #expect(Base64.decode(Base64.urlEncode(bytes)) == bytes)
    }

    @Test("the bytes that use the last characters of each alphabet")
    func alphabetEnds() {
        #expect(Base64.standardEncode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(Base64.urlEncode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64.urlEncode([0xFF]) == "_w" && Base64.standardEncode([0xFF]) == "/w==")
    }
}
