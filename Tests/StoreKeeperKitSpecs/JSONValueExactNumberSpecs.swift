import Foundation
import StoreKeeperAPI
import Testing

/// Metadata numbers are the same number after every hop (the owner's body, the server's store, the device): a
/// spelling becomes the case that writes the same number back, and one nothing can keep is `nil`.
@Suite struct JSONValueExactNumberSpecs {
    @Test(
        "each spelling becomes the case that keeps it",
        arguments: [
            ("7", JSONValue.integer(7)), ("-0", .integer(0)), ("3.0", .integer(3)), ("3e0", .integer(3)),
            ("9007199254740993", .integer(9_007_199_254_740_993)), ("0.1", .number(0.1)),
            ("1.5e300", .number(1.5e300)), ("-2.5e-300", .number(-2.5e-300)), ("1e16", .number(1e16)),
            ("123456789012345678901234567890", .decimal(Decimal(string: "123456789012345678901234567890")!)),
            ("2.12345678901234567891", .decimal(Decimal(string: "2.12345678901234567891")!)),
            ("-18446744073709551617", .decimal(Decimal(string: "-18446744073709551617")!)),
        ])
    func kept(_ text: String, _ expected: JSONValue) {
        #expect(JSONValue(exactNumber: text) == expected)
    }

    @Test(
        "a number nothing keeps as written is nil, never rounded or flushed",
        arguments: ["1e999", "-1e999", "1e-999", "2.5e-400", "1.234567890123456789012345678901234567891", "1.2.3"])
    func refused(_ text: String) {
        #expect(JSONValue(exactNumber: text) == nil)
    }

    @Test("a decimal survives the device's decoder and encoder digit for digit")
    func roundTrip() throws {
        let body = Data(#"{"big":123456789012345678901234567890,"long":2.12345678901234567891,"pi":3.14159}"#.utf8)
        let value = try JSONDecoder().decode(JSONValue.self, from: body)
        #expect(value["big"] == .decimal(Decimal(string: "123456789012345678901234567890")!))
        #expect(value["long"] == .decimal(Decimal(string: "2.12345678901234567891")!))
        #expect(value["pi"] == .number(3.14159))
        let written = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(written.contains("123456789012345678901234567890") && written.contains("2.12345678901234567891"))
    }
}
