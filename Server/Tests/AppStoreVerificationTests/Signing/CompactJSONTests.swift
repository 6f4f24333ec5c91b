import AppStoreSigning
import Foundation
import Testing

/// The JSON we sign and send reads back as the value written: every kind of value, escapes of every control
/// character, nested tokens; keys sorted; and what the writer does not know still goes out through Foundation.
@Suite struct CompactJSONTests {
    static func parse(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("scalars, arrays and nested objects round-trip through Foundation's parser; keys come sorted")
    func values() throws {
        let object: [String: Any] = [
            "b": true, "a": -12, "price": 9.99, "whole": 5.0, "ms": Int64(1_795_459_748_428), "none": NSNull(),
            "list": [1, "two", false, ["deep": "yes"]] as [Any], "nested": ["z": 1, "y": "é/ü"] as [String: Any],
        ]
        let data = CompactJSON.data(object)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":-12,"b":true,"list":[1,"two",false,{"deep":"yes"}],"ms":1795459748428,"#))
        #expect(text.hasSuffix(#""whole":5}"#) && text.contains(#""price":9.99"#) && text.contains(#""y":"é/ü""#))
        let back = try Self.parse(data)
        #expect(back["price"] as? Double == 9.99 && back["ms"] as? Int64 == 1_795_459_748_428)
        #expect((back["nested"] as? [String: Any])?["y"] as? String == "é/ü")
    }

    @Test("quotes, backslashes and every control character are escaped and read back exactly")
    func escapes() throws {
        let nasty = "quote\" back\\slash" + String((0..<32).map { Character(UnicodeScalar(UInt8($0))) }) + "end"
        let back = try Self.parse(CompactJSON.data(["s": nasty]))
        #expect(back["s"] as? String == nasty)
    }

    @Test("a value it does not write itself (a bridged number, an NSString) still becomes JSON")
    func fallback() throws {
        let back = try Self.parse(CompactJSON.data(["n": NSNumber(value: 3), "s": NSString(string: "x")]))
        #expect(back["n"] as? Int == 3 && back["s"] as? String == "x")
    }
}
