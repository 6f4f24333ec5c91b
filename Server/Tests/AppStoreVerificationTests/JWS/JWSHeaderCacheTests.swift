import Foundation
import StoreKeeperWire
import TestSupport
import Testing

@testable import AppStoreVerification

/// `JWSHeaderCache` answers only for the exact header bytes it stored, and stays within its capacity.
@Suite struct JWSHeaderCacheTests {
    static func header(_ token: String) throws -> (ArraySlice<UInt8>, JWSHeader) {
        let encoded = ArraySlice(Array(token.split(separator: ".")[0].utf8))
        return (encoded, try JWSHeader(encoded: encoded))
    }

    @Test("a stored header is found by the same bytes, not by other bytes")
    func exactBytes() throws {
        let cache = JWSHeaderCache()
        let (encoded, header) = try Self.header(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws"))
        #expect(cache.header(for: encoded) == nil)
        cache.store(header, for: encoded)
        #expect(cache.header(for: encoded)?.chainKey == header.chainKey)
        #expect(cache.header(for: encoded.dropLast()) == nil)
        var altered = Array(encoded)
        altered[altered.count / 2] ^= 0x01
        #expect(cache.header(for: altered[...]) == nil)
    }

    @Test("past its capacity it forgets, so it never holds more than capacity headers; capacity 0 remembers nothing")
    func bounded() throws {
        let (_, header) = try Self.header(try Fixtures.text("jws/notification_TEST_sandbox_2022.jws"))
        let cache = JWSHeaderCache(capacity: 3)
        let keys = (0..<4).map { ArraySlice(Array("header-\($0)".utf8)) }
        for key in keys.prefix(3) { cache.store(header, for: key) }
        #expect(keys.prefix(3).allSatisfy { cache.header(for: $0) != nil })
        cache.store(header, for: keys[3])
        #expect(cache.header(for: keys[3]) != nil)
        #expect(keys.prefix(3).filter { cache.header(for: $0) != nil }.count < 3)
        let none = JWSHeaderCache(capacity: 0)
        none.store(header, for: keys[0])
        #expect(none.header(for: keys[0]) == nil)
    }

    @Test("an oversized header (as unauthenticated notifications can carry) is decoded but never kept")
    func oversizedHeadersNotKept() throws {
        let apple = try Fixtures.text("jws/notification_TEST_sandbox_2022.jws")
        let cache = JWSHeaderCache()
        _ = try CompactJWS(apple, headerCache: cache)
        #expect(cache.count == 1, "Apple's header (about 4 KB) is kept")
        // 120 KB of padding certificates: the shape of a header that would pin memory if kept.
        let padding = Array(repeating: "\"" + String(repeating: "A", count: 40_000) + "\"", count: 3)
        for round in 0..<4 {
            let header = #"{"alg":"ES256","round":\#(round),"x5c":[\#(padding.joined(separator: ","))]}"#
            let token = Base64.urlEncode(Array(header.utf8)) + "." + apple.split(separator: ".")[1] + ".c2ln"
            _ = try CompactJWS(token, headerCache: cache)
        }
        #expect(cache.count == 1, "no oversized header is kept")
    }
}
