import Foundation
import TestSupport
import Testing

/// Did it work: a customer about to cancel takes the retention offer Apple showed, the offer is redeemed on their
/// next renewal (a promotional offer, `offerType` 2), and the metrics count the request and the save — against
/// `storekeeper serve` with its in-process App Store.
@Suite(.timeLimit(.minutes(3))) struct RetentionSavesTests {
    typealias E2E = RetentionEndToEndTests

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The points of a metric's series, by key, summed over the buckets.
    static func totals(_ client: ServeClient, _ metric: String, split: String) async throws -> [String: Double] {
        let (status, body) = try await client.call(
            .GET, "/v1/metrics/\(metric)?environment=Sandbox&interval=month&split=\(split)", key: E2E.secretKey)
        #expect(status == 200, "\(body)")
        var totals: [String: Double] = [:]
        for series in try json(body)["series"] as? [[String: Any]] ?? [] {
            let points = series["points"] as? [[String: Any]] ?? []
            totals[series["key"] as? String ?? ""] = points.compactMap { $0["value"] as? Double }.reduce(0, +)
        }
        return totals
    }

    @Test("an offer taken on the subscription's page is redeemed at the renewal and counted as a save")
    func offerRedeemed() async throws {
        try await E2E.withServer { client in
            let (bought, purchase) = try await client.call(
                .POST, "/simulator/v1/purchases", key: nil,
                body: #"{"bundleID":"\#(E2E.bundleID)","productID":"premium.monthly","customerID":"sam"}"#)
            #expect(bought == 201, "\(purchase)")
            let original = try #require(try Self.json(purchase)["originalTransactionId"] as? String)
            let (_, receiptJSON) = try await client.call(
                .GET, "/simulator/v1/apps/\(E2E.bundleID)/receipt?customerID=sam", key: nil)
            let receipt = try #require(try Self.json(receiptJSON)["receipt"] as? String)
            let (posted, _) = try await client.call(
                .POST, "/v1/receipts", body: #"{"app_user_id":"sam","receipt":"\#(receipt)"}"#)
            #expect(posted == 200)
            try await E2E.upload(client, E2E.message, approve: true)
            let (saved, rules) = try await E2E.rules(
                client,
                #"{"rules":[{"identifier":"stay50","respond":{"promotional_offer":{"message_id":"\#(E2E.message)","offer_id":"winback50"}}}]}"#
            )
            #expect(saved == 200, "\(rules)")
            // The customer turns auto-renew off, opens the page, and takes the offer shown.
            let (off, _) = try await client.call(
                .POST, "/simulator/v1/subscriptions/\(original)/auto-renew", key: nil, body: #"{"enabled":false}"#)
            #expect(off == 200)
            let (opened, report) = try await client.call(
                .POST, "/simulator/v1/apps/\(E2E.bundleID)/retention-requests", key: nil,
                body: #"{"customerID":"sam","locale":"en-US","accept":true}"#)
            #expect(opened == 200)
            let accepted = try Self.json(report)["accepted"] as? [String: Any]
            #expect(
                accepted?["kind"] as? String == "promotional_offer"
                    && accepted?["offerIdentifier"] as? String == "winback50", "\(report)")
            let (_, pending) = try await client.call(.GET, "/simulator/v1/subscriptions/\(original)", key: nil)
            #expect(try Self.json(pending)["autoRenewStatus"] as? Bool == true)
            #expect(try Self.json(pending)["pendingOfferIdentifier"] as? String == "winback50")
            // Before the period ends, the save is not known yet.
            #expect(try await Self.totals(client, "retention_saves", split: "rule")["stay50", default: 0] == 0)

            let (advanced, _) = try await client.call(
                .POST, "/simulator/v1/clock/advance", key: nil, body: #"{"months":1.05}"#)
            #expect(advanced == 200)
            let (_, renewed) = try await client.call(.GET, "/simulator/v1/subscriptions/\(original)", key: nil)
            let latest = try #require(try Self.json(renewed)["latestTransactionId"] as? String)
            let (_, transaction) = try await client.call(.GET, "/simulator/v1/transactions/\(latest)", key: nil)
            #expect(try Self.json(transaction)["offerType"] as? Int == 2, "\(transaction)")
            #expect(try Self.json(transaction)["offerIdentifier"] as? String == "winback50")
            var saves: [String: Double] = [:]
            for _ in 0..<100 where saves["promotional_offer", default: 0] == 0 {
                saves = try await Self.totals(client, "retention_saves", split: "response_kind")
                if saves["promotional_offer", default: 0] == 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(saves == ["promotional_offer": 1], "the renewal reached the server and counts as a save")
            #expect(try await Self.totals(client, "retention_requests", split: "rule") == ["stay50": 1])
            // The dashboard's Retention page shows how the rule did.
            var browser = TestBrowser(base: client.base)
            let form = try await browser.go(.GET, "/dashboard/login")
            let token = try #require(TestBrowser.csrf(in: form.body))
            browser.cookie = try #require(form.headers.first(name: "Set-Cookie")?.split(separator: ";").first)
                .description
            let signedIn = try await browser.go(.POST, "/dashboard/login", form: "csrf=\(token)&key=\(E2E.secretKey)")
            browser.cookie = try #require(signedIn.headers.first(name: "Set-Cookie")?.split(separator: ";").first)
                .description
            let page = try await browser.go(.GET, "/dashboard/retention")
            #expect(page.body.contains("<tr><td>stay50</td><td>1</td><td>1</td><td>100 %</td></tr>"), "\(page.body)")
            #expect(page.body.contains("weeks, Sandbox") && page.body.contains("Retention saves by rule"))
            let (refused, why) = try await client.call(
                .GET, "/v1/metrics/retention_saves?split=storefront", key: E2E.secretKey)
            #expect(refused == 400 && why.contains("rule"), "\(why)")
        }
    }
}
