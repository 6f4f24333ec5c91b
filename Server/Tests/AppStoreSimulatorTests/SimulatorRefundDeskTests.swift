import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// The simulator as Apple's refund desk: a refund request opens 12 hours for the developer's consumption
/// information, which is refused as Apple refuses it; the decision follows the developer's preference, or is a
/// full refund when the developer said nothing in time.
@Suite struct SimulatorRefundDeskTests {
    /// A consumption body (v2) with `fields` over the required ones.
    static func body(_ fields: [String: Any] = [:]) throws -> Data {
        var object: [String: Any] = [
            "customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED",
        ]
        for (key, value) in fields { object[key] = value }
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// The Apple error code sending `body` about `id` gets (`nil`: accepted).
    static func code(_ h: SimulatorHarness, _ id: String, _ body: Data, version: Int = 2) async -> Int64? {
        do {
            try await h.simulator.sendConsumptionInformation(
                transactionID: id, bundleID: h.bundleID, body: body, version: version)
            return nil
        } catch {
            return error.errorCode
        }
    }

    @Test("consumption information is refused without an open request, and as Apple refuses a bad body")
    func refusals() async throws {
        let h = try await SimulatorHarness()
        let coins = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "ada")
        let id = coins.transactionID
        #expect(await Self.code(h, id, try Self.body()) == 4_000_000, "no request yet")
        try await h.simulator.requestConsumption(transactionID: id, reason: "UNINTENDED_PURCHASE")
        #expect(await Self.code(h, id, try Self.body(["customerConsented": false])) == 4_000_035)
        #expect(
            await Self.code(h, id, Data(#"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#.utf8)) == 4_000_041)
        #expect(await Self.code(h, id, try Self.body(["deliveryStatus": "LOST"])) == 4_000_036)
        #expect(await Self.code(h, id, try Self.body(["consumptionPercentage": 100_001])) == 4_000_000)
        #expect(await Self.code(h, id, try Self.body(["consumptionPercentage": -1])) == 4_000_000)
        #expect(await Self.code(h, id, try Self.body(["refundPreference": "MAYBE"])) == 4_000_000)
        #expect(await Self.code(h, id, Data("not json".utf8)) == 4_000_000)
        #expect(await h.simulator.consumptionRequest(id)?.answer == nil, "nothing refused was recorded")
        let accepted = try Self.body(["consumptionPercentage": 100_000, "refundPreference": "DECLINE"])
        #expect(await Self.code(h, id, accepted) == nil)
        #expect(await h.simulator.consumptionRequest(id)?.answer == String(decoding: accepted, as: UTF8.self))
        // Past Apple's 12 hours the request is closed (and decided): nothing more is taken.
        h.clock.advance(by: SimulatedConsumptionRequest.answerWindow + 1)
        #expect(await Self.code(h, id, accepted) == 4_000_000)
    }

    @Test("the decision follows the preference: declined, prorated by what was consumed, or full")
    func decisions() async throws {
        let h = try await SimulatorHarness()
        var decided: [String] = []
        for (customer, answer) in [
            ("dee", ["refundPreference": "DECLINE"]),
            ("pat", ["refundPreference": "GRANT_PRORATED", "consumptionPercentage": 25_000]),
            ("fay", ["refundPreference": "GRANT_FULL"]),
        ] as [(String, [String: Any])] {
            let coins = try await h.simulator.purchase(
                bundleID: h.bundleID, productID: "coins.100", customerID: customer)
            try await h.simulator.requestConsumption(transactionID: coins.transactionID)
            try await h.simulator.sendConsumptionInformation(
                transactionID: coins.transactionID, bundleID: h.bundleID, body: try Self.body(answer), version: 2)
            decided.append(try await h.simulator.decideRefund(transactionID: coins.transactionID))
            let transaction = await h.simulator.transaction(coins.transactionID)
            switch customer {
            case "dee":
                #expect(try await h.lastNotification()?.0 == "REFUND_DECLINED")
                #expect(transaction?.revocationDate == nil)
            case "pat":
                #expect(try await h.lastNotification()?.0 == "REFUND")
                #expect(transaction?.revocationPercentage == 75_000)
            default:
                #expect(transaction?.revocationDate != nil && transaction?.revocationPercentage == nil)
            }
            await #expect(throws: SimulatorError.self) {
                try await h.simulator.decideRefund(transactionID: coins.transactionID)
            }
        }
        #expect(decided == ["REFUND_DECLINED", "REFUND_PRORATED", "REFUND_FULL"])
    }

    @Test("a request nobody answered is a full refund once its 12 hours close, and survives a restart")
    func unanswered() async throws {
        let h = try await SimulatorHarness()
        let coins = try await h.simulator.purchase(bundleID: h.bundleID, productID: "coins.100", customerID: "kai")
        try await h.simulator.requestConsumption(transactionID: coins.transactionID, reason: "FULFILLMENT_ISSUE")
        let restored = try await SimulatorHarness()
        try await restored.simulator.restore(await h.simulator.world())
        #expect(await restored.simulator.consumptionRequest(coins.transactionID)?.reason == "FULFILLMENT_ISSUE")
        h.clock.advance(by: SimulatedConsumptionRequest.answerWindow - 60)
        #expect(await h.simulator.consumptionRequest(coins.transactionID)?.decision == nil)
        h.clock.advance(by: 120)
        #expect(await h.simulator.consumptionRequest(coins.transactionID)?.decision == "REFUND_FULL")
        #expect(await h.simulator.transaction(coins.transactionID)?.revocationDate != nil)
        #expect(try await h.lastNotification()?.0 == "REFUND")
    }
}
