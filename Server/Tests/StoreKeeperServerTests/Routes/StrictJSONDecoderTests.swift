import AppStoreVerification
import Foundation
import StoreKeeperAPI
import Testing

@testable import StoreKeeperServer

/// The one strict reader of request bodies: one parse, a key given twice refused, a field nothing read refused by
/// its path at any depth (null or not), free-form maps passing whole, numbers read as `JSONDecoder` reads them.
@Suite struct StrictJSONDecoderTests {
    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try StrictJSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test("a field nothing reads is refused by its path, with what its object may hold")
    func unknownFields() throws {
        let cases: [(String, String)] = [
            (
                #"{"rules":[{"identifier":"a","offering_id":"o","when":{"platform":["iOS"]}}]}"#,
                "rules[0].when.platform"
            ),
            (
                #"{"rules":[{"identifier":"a","offering_id":"o","when":{"app_version":{"min":"1"}}}]}"#,
                "rules[0].when.app_version.min"
            ),
            (#"{"rules":[],"extra":null}"#, "extra"),
            (#"{"rules":[{"identifier":"a","offering_id":"o","colour":"red"}]}"#, "rules[0].colour"),
        ]
        for (text, path) in cases {
            do {
                _ = try Self.decode(TargetingRules.self, text)
                Issue.record("\(path) was taken")
            } catch let unknown as StrictJSONDecoder.UnknownField {
                #expect(unknown.path == path)
                if path.hasSuffix("platform") { #expect(unknown.expected.contains("platforms")) }
            }
        }
    }

    @Test("free-form maps pass whole; what the types read decodes as JSONDecoder decodes it")
    func readsLikeJSONDecoder() throws {
        let attributes = #"{"attributes":{"$email":"a@example.com","plan":null,"any-name_1.x":"v"}}"#
        #expect(
            try Self.decode(AttributesPost.self, attributes)
                == (try JSONDecoder().decode(AttributesPost.self, from: Data(attributes.utf8))))
        let offering =
            #"{"identifier":"x","packages":[{"identifier":"m","product_id":"p"}],"metadata":{"a":[1,2.5,{"b":null}],"c":true}}"#
        #expect(
            try Self.decode(Offering.self, offering)
                == (try APICoding.decoder().decode(Offering.self, from: Data(offering.utf8))))
        let experiment =
            #"{"identifier":"e","variants":[{"identifier":"a","offering_id":"o","weight":5e1},{"identifier":"b","offering_id":"p","weight":50.0}]}"#
        #expect(try Self.decode(ExperimentPost.self, experiment).variants.map(\.weight) == [50, 50])
    }

    @Test("a key given twice, a wrong type and a missing field are refused with their paths")
    func refusals() throws {
        #expect(throws: VerificationError.self) {
            try Self.decode(AttributesPost.self, #"{"attributes":{"a":"1","a":"2"}}"#)
        }
        do {
            _ = try Self.decode(AttributesPost.self, #"{"attributes":{"a":3}}"#)
            Issue.record("a number taken for a string")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(APICall.path(context.codingPath) == "attributes.a" && type == String.self)
        }
        do {
            _ = try Self.decode(WebhookEndpointPost.self, #"{"url":"https://example.com/h","event_types":"renewal"}"#)
            Issue.record("a string taken for a list")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(APICall.path(context.codingPath) == "event_types" && type == [String].self)
        }
        #expect(throws: DecodingError.self) { try Self.decode(AliasPost.self, #"{}"#) }
    }
}
