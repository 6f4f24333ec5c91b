import Foundation
import Testing

@testable import AppStoreVerification

/// `JSONValue` is a strict RFC 8259 parser that never traps: what it accepts it reads as JSONSerialization
/// does, and what is not JSON is a typed error.
@Suite struct JSONValueTests {
    @Test(
        "values read as JSONSerialization reads them",
        arguments: [
            #"{"a":"x","b":1,"c":-2.5e3,"d":true,"e":false,"f":null,"g":[1,"2",{"h":[]}]}"#,
            #"  [ "\u00e9\n\t\"\\\/", "😀", "\ud83d\ude00" ]  "#,
            #"{"nested":{"deeper":{"deepest":[[[0]]]}}}"#,
            #""plain""#, "123", "0.5", "true", "null",
        ])
    func agreesWithJSONSerialization(_ text: String) throws {
        let ours = try JSONValue.parse(Array(text.utf8))
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.plain(ours) == Self.plain(from: theirs), "\(text)")
    }

    @Test("members, strings and numbers by accessor; duplicate keys refused")
    func accessors() throws {
        let value = try JSONValue.parse(Array(#"{"alg":"ES256","n":12.5,"list":[]}"#.utf8))
        #expect(value["alg"]?.stringValue == "ES256" && value["n"]?.doubleValue == 12.5 && value["missing"] == nil)
        #expect(value["list"] == .array([]) && value["alg"]?.doubleValue == nil)
        #expect(throws: VerificationError.self) { try JSONValue.parse(Array(#"{"a":1,"a":2}"#.utf8)) }
    }

    @Test(
        "what is not JSON is a typed error, never a trap",
        arguments: [
            "", "{", "}", "[1,]", #"{"a" 1}"#, #"{"a":01}"#, "tru", "nul", #""\x""#, #""\u12G4""#,
            "\"raw\u{1}control\"", "1 2",
            #"{"a":1}x"#, "+1", ".5", "1.", "1e", "\"unterminated", String(repeating: "[", count: 10_000),
        ])
    func malformed(_ text: String) {
        #expect(throws: VerificationError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    /// A comparable rendering of a JSONValue.
    static func plain(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "s:\(text)"
        case .number(let text): "n:\(Double(text) ?? .nan)"
        case .bool(let flag): "b:\(flag)"
        case .null: "null"
        case .array(let items): "[" + items.map(plain).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.0 < $1.0 }.map { "\($0.0)=\(plain($0.1))" }.joined(separator: ",") + "}"
        }
    }

    /// The same rendering of what JSONSerialization read.
    static func plain(from object: Any) -> String {
        switch object {
        case let text as String: return "s:\(text)"
        case let number as NSNumber:
            // Foundation boxes true and false in its own NSNumber subclass (…Boolean) on every platform.
            if String(describing: type(of: number)).contains("Boolean") { return "b:\(number.boolValue)" }
            return "n:\(number.doubleValue)"
        case is NSNull: return "null"
        case let items as [Any]: return "[" + items.map { plain(from: $0) }.joined(separator: ",") + "]"
        case let members as [String: Any]:
            return "{"
                + members.sorted { $0.key < $1.key }.map { "\($0.key)=\(plain(from: $0.value))" }.joined(separator: ",")
                + "}"
        default: return "?"
        }
    }
}
