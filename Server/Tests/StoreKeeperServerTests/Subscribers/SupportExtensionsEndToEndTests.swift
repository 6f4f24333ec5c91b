import AppStoreModels
import AppStoreSimulator
import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/extend`: support asks Apple (the
/// simulator, with Apple's rules) to move a renewal date, over HTTP on both databases. The customer's document
/// moves in the same call and the event says why; Apple's limits are named (two in 365 days, checked before Apple
/// is asked, and Apple's own count); every refusal changes nothing.
@Suite struct SupportExtensionsEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func path(_ user: String, _ original: String) -> String { APIEndpoint.postExtension.path(user, original) }

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static func message(_ body: [String: Any]) -> String {
        (body["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    /// Support's request, as JSON.
    static func body(_ days: Any, _ reason: String = "service_issue") -> Data {
        try! JSONSerialization.data(withJSONObject: ["days": days, "reason": reason])
    }

    /// The customer's first subscription's `expires_at`.
    static func expiry(_ client: E2E.Client, _ user: String) async throws -> String? {
        try await client.subscription(user)?["expires_at"] as? String
    }

    @Test(
        "Apple moves the renewal date; the document, Apple's answer and the simulator agree at once; twice a year, then named",
        arguments: TestDatabases.backends)
    func extendsTwiceThenTheLimit(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let (bought, status) = try await client.buy(h, "premium.monthly", customer: "outage-1")
            #expect(status == 200)
            let original = bought.originalTransactionID
            let before = try #require(try await Self.expiry(client, "outage-1"))

            let (extended, answer) = try await client.call(
                .POST, Self.path("outage-1", original), key: E2E.secretKey, body: Self.body(3))
            #expect(extended == 200, "\(answer)")
            #expect(answer["days"] as? Int == 3 && answer["reason"] as? String == "service_issue")
            #expect(answer["extensions_in_year"] as? Int == 1)
            #expect((answer["request_identifier"] as? String)?.count == 36)
            let apple = try #require(await h.simulator.subscription(original)?.periodEnd)
            let after = try #require(try await Self.expiry(client, "outage-1"))
            #expect(after != before, "the document moved in the same call")
            let renewsAt = try #require(answer["renews_at"] as? String)
            #expect(AppleDateFormat.parse(after) == AppleDateFormat.parse(renewsAt))
            #expect(abs((AppleDateFormat.parse(after) ?? .distantPast).timeIntervalSince(apple)) < 0.002)

            let (_, events) = try await client.call(.GET, "/v1/subscribers/outage-1/events", key: E2E.secretKey)
            let extensions = (events["events"] as? [[String: Any]] ?? []).filter {
                $0["type"] as? String == "renewal_extended"
            }
            #expect(extensions.count == 1 && extensions.first?["cause"] as? String == "support", "\(events)")

            let (second, secondAnswer) = try await client.call(
                .POST, Self.path("outage-1", original), key: E2E.secretKey, body: Self.body(1, "customer_satisfaction"))
            #expect(second == 200 && secondAnswer["extensions_in_year"] as? Int == 2, "\(secondAnswer)")
            let twice = try await Self.expiry(client, "outage-1")
            let (third, refused) = try await client.call(
                .POST, Self.path("outage-1", original), key: E2E.secretKey, body: Self.body(1))
            #expect(third == 409 && Self.code(refused) == "extension_limit_reached", "\(refused)")
            #expect(Self.message(refused).contains("2 times") && Self.message(refused).contains("365 days"))
            #expect(try await Self.expiry(client, "outage-1") == twice, "a refusal changes nothing")
        }
    }

    @Test(
        "bad days or reasons, another customer's subscription and Apple's refusals are named and change nothing",
        arguments: TestDatabases.backends)
    func refusals(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let (mine, _) = try await client.buy(h, "premium.monthly", customer: "ticket-1")
            let (theirs, _) = try await client.buy(h, "premium.monthly", customer: "ticket-2")
            let document = try await client.subscriber("ticket-1")
            for (body, code, named) in [
                (Self.body(91), "invalid_extension", "days 91"), (Self.body(0), "invalid_extension", "days 0"),
                (Self.body(7, "because"), "invalid_extension", "reason \"because\""),
                (Data(#"{"reason": "other"}"#.utf8), "missing_field", "days"),
                (Data(#"{"days": 7, "reason": "other", "note": "x"}"#.utf8), "unknown_field", "note"),
            ] {
                let (status, answer) = try await client.call(
                    .POST, Self.path("ticket-1", mine.originalTransactionID), key: E2E.secretKey, body: body)
                #expect(status == 400 && Self.code(answer) == code, "\(answer)")
                #expect(Self.message(answer).contains(named), "\(answer)")
            }
            let (status, answer) = try await client.call(
                .POST, Self.path("ticket-1", theirs.originalTransactionID), key: E2E.secretKey, body: Self.body(7))
            #expect(status == 404 && Self.code(answer) == "transaction_not_found", "\(answer)")
            let (public404, _) = try await client.call(
                .POST, Self.path("ticket-1", mine.originalTransactionID), body: Self.body(7))
            #expect(public404 == 403, "the app's public key cannot extend")

            // Apple counts extensions made elsewhere (another tool, Apple's own support): its 4030005 is named too.
            for _ in 0..<2 {
                var request = ExtendRenewalDateRequest()
                request.extendByDays = 1
                request.extendReasonCode = 2
                request.requestIdentifier = UUID().uuidString
                _ = try await h.simulator.extendRenewalDate(
                    originalTransactionID: theirs.originalTransactionID, bundleID: E2E.bundleID, request: request)
            }
            let (limited, limitAnswer) = try await client.call(
                .POST, Self.path("ticket-2", theirs.originalTransactionID), key: E2E.secretKey, body: Self.body(7))
            #expect(limited == 409 && Self.code(limitAnswer) == "extension_limit_reached", "\(limitAnswer)")

            // A refunded (revoked) subscription is not Apple's to extend: 4030004, named.
            try await h.simulator.refund(transactionID: mine.transactionID)
            let (ineligible, ineligibleAnswer) = try await client.call(
                .POST, Self.path("ticket-1", mine.originalTransactionID), key: E2E.secretKey, body: Self.body(7))
            #expect(ineligible == 409 && Self.code(ineligibleAnswer) == "extension_refused", "\(ineligibleAnswer)")
            let (_, events) = try await client.call(.GET, "/v1/subscribers/ticket-1/events", key: E2E.secretKey)
            #expect(
                !(events["events"] as? [[String: Any]] ?? []).contains { $0["type"] as? String == "renewal_extended" })
            #expect(
                (try await client.subscriber("ticket-1")["subscriptions"] as? [[String: Any]])?.first?["expires_at"]
                    as? String == (document["subscriptions"] as? [[String: Any]])?.first?["expires_at"] as? String)
        }
    }
}
