import Foundation
import Testing

@testable import StoreKeeperStorage

/// An event's detail is written exactly as `JSONEncoder` with sorted keys writes it, and reads back as written.
@Suite struct EventDetailWriterTests {
    static func reference(_ detail: [String: EventValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(detail), as: UTF8.self)
    }

    static let details: [[String: EventValue]] = [
        [:],
        ["notification_type": "DID_RENEW", "transaction_id": "2000000847061981"],
        [
            "notification_type": "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "kind": "notification_v2",
            "transaction_id": "1",
        ],
        ["alias": "user/with\\slashes", "app_user_id": "quote\"d"],
        ["control": .string(String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}")],
        ["unicode": "é日本語🙂\u{2028}\u{2029}\u{FEFF}", "empty": ""],
        ["Zed": "1", "alpha": "2", "_under": "3", "9": "4", "Alpha": "5"],
        ["transactions": 2, "device_id": "d-1", "late": true, "negative": -9_223_372_036_854_775_808, "off": false],
    ]

    @Test("details are written byte for byte as JSONEncoder writes them", arguments: details)
    func matchesJSONEncoder(_ detail: [String: EventValue]) throws {
        #expect(EventDetailWriter.json(detail) == (try Self.reference(detail)))
    }

    @Test("written details read back as the same map, each value its own JSON type", arguments: details)
    func roundTrips(_ detail: [String: EventValue]) throws {
        #expect(
            try JSONDecoder().decode([String: EventValue].self, from: Data(EventDetailWriter.json(detail).utf8))
                == detail)
    }
}
