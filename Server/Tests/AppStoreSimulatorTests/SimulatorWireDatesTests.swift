import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Every date the simulator's Server API puts in JSON is a whole number of milliseconds, as Apple's are (a
/// strict Int64 decoder, like Apple's own libraries', rejects `1795459748428.801`).
@Suite struct SimulatorWireDatesTests {
    /// The JSON numbers under `key` anywhere in `json`.
    static func numbers(_ key: String, in json: Data) -> [String] {
        let text = String(decoding: json, as: UTF8.self)
        let pattern = "\"\(key)\":([0-9.eE+-]+)"
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test("effectiveDate and every sendAttempts[].attemptDate are whole milliseconds, on a clock between them")
    func wholeMilliseconds() async throws {
        let h = try await SimulatorHarness()
        // A clock at a fraction of a millisecond.
        h.clock.advance(by: 0.123_456)
        let bought = try await h.simulator.purchase(
            bundleID: h.bundleID, productID: "premium.monthly", customerID: "ms")
        await h.simulator.recordAttempt(
            notificationUUID: try #require(await h.simulator.notifications(for: h.bundleID).last?.notificationUUID),
            result: "SUCCESS")
        var extend = ExtendRenewalDateRequest()
        extend.extendByDays = 3
        extend.extendReasonCode = 1
        extend.requestIdentifier = "r-1"
        let extended = try await h.simulator.extendRenewalDate(
            originalTransactionID: bought.originalTransactionID, bundleID: h.bundleID, request: extend)
        let effective = Self.numbers("effectiveDate", in: try JSONEncoder().encode(extended))
        var query = NotificationHistoryRequest()
        query.startDate = 0
        query.endDate = Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000 * 400
        let history = try await h.simulator.notificationHistory(
            bundleID: h.bundleID, request: query, paginationToken: nil)
        let attempts = Self.numbers("attemptDate", in: try JSONEncoder().encode(history))
        #expect(effective.count == 1 && !attempts.isEmpty)
        for number in effective + attempts {
            #expect(Int64(number) != nil, "\(number) is not a whole number of milliseconds")
        }
    }
}
