import AppStoreModels
import Foundation
import Testing

/// Apple's messy scalars decode; unknown enum values are kept, not refused.
@Suite struct LenientDecodingTests {
    struct Probe: Codable {
        @Lenient var flag: Bool?
        @Lenient var count: Int?
        @Lenient var when: Date?
        @Lenient var environment: AppStoreEnvironment?
        @Lenient var intent: ExpirationIntent?
    }

    func decode(_ json: String) throws -> Probe {
        try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
    }

    @Test("booleans as true, \"true\", \"1\", 1", arguments: ["true", "\"true\"", "\"1\"", "1"])
    func booleans(_ literal: String) throws {
        #expect(try decode("{\"flag\":\(literal)}").flag == true)
    }

    @Test("numbers as strings, dates as ms strings or Etc/GMT text, missing fields as nil")
    func scalars() throws {
        let probe = try decode(#"{"count":"3","when":"2019-07-01 12:00:00 Etc/GMT"}"#)
        #expect(probe.count == 3)
        #expect(probe.when == Date(timeIntervalSince1970: 1_561_982_400))
        #expect(probe.flag == nil)
        #expect(try decode(#"{"when":"1561982400000"}"#).when == probe.when)
    }

    @Test("unknown enum values decode to unknown(raw) and encode back unchanged")
    func unknownEnums() throws {
        let probe = try decode(#"{"environment":"Staging","intent":"9"}"#)
        #expect(probe.environment == .unknown("Staging"))
        #expect(probe.intent == .unknown(9))
        #expect(try decode(#"{"environment":"PROD","intent":"2"}"#).environment == .production)
        #expect(try decode(#"{"intent":"2"}"#).intent == .billingError)
        let type = try JSONDecoder().decode(NotificationTypeV2.self, from: Data(#""SOMETHING_NEW_2027""#.utf8))
        #expect(type == .unknown("SOMETHING_NEW_2027"))
        #expect(String(decoding: try JSONEncoder().encode(type), as: UTF8.self) == #""SOMETHING_NEW_2027""#)
    }

    @Test("a wrong scalar is a DecodingError naming the field, not a crash")
    func wrongScalar() {
        #expect(throws: DecodingError.self) { try decode(#"{"flag":"maybe"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"count":[1]}"#) }
    }
}
