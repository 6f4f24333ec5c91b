import Foundation
import StoreKeeperWire
import Testing

/// ``JSONWriter/appendString(_:to:escapingSlashes:)`` is the one JSON string escaper: it writes every string as
/// `JSONEncoder` does, with slashes escaped (the encoder's default) or not (`.withoutEscapingSlashes`).
@Suite struct JSONWriterTests {
    /// Strings with every kind of character that needs care: quotes, backslashes, slashes, each control
    /// character, DEL, other scripts and emoji.
    static func strings() -> [String] {
        var strings = ["", "plain", "a\"b", "back\\slash", "https://example.com/a/b", "tab\there", "🙂 ünïcödé 日本"]
        strings += (0..<0x20).map { "x\(Character(Unicode.Scalar(UInt8($0))))y" }
        strings.append("del\u{7F}")
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("a/\"\\\n\t\u{1}é🙂 ")
        for _ in 0..<200 {
            strings.append(
                String((0..<Int.random(in: 0..<24, using: &generator)).map { _ in alphabet.randomElement()! }))
        }
        return strings
    }

    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        let escaping = JSONEncoder()
        let plain = JSONEncoder()
        plain.outputFormatting = [.withoutEscapingSlashes]
        for string in Self.strings() {
            var withSlashes: [UInt8] = []
            JSONWriter.appendString(string, to: &withSlashes, escapingSlashes: true)
            #expect(withSlashes == Array(try escaping.encode(string)), "\(string.debugDescription)")
            var without: [UInt8] = []
            JSONWriter.appendString(string, to: &without)
            #expect(without == Array(try plain.encode(string)), "\(string.debugDescription)")
        }
    }

    @Test func objectsArraysAndScalarsAreWrittenInTheOrderGiven() {
        var writer = JSONWriter()
        writer.object { writer in
            writer.key("a")
            writer.array([1, 2]) { writer, number in writer.value(number) }
            writer.key("b")
            writer.value(true)
            writer.key("c")
            writer.value(nil as String?)
            writer.key("d")
            writer.value(Date(timeIntervalSince1970: 86_400 * 365 + 3_661.9))
            writer.key("e")
            writer.raw(Array(#"{"x":1}"#.utf8))
        }
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"a":[1,2],"b":true,"c":null,"d":"1971-01-01T01:01:01Z","e":{"x":1}}"#)
        #expect(writer.isExact)
    }

    @Test func aDateItCannotWriteAsTheEncoderDoesClearsIsExact() {
        var writer = JSONWriter()
        writer.value(Date(timeIntervalSince1970: -1))
        #expect(!writer.isExact)
    }
}
