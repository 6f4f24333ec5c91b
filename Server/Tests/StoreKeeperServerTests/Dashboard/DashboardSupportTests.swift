import Foundation
import NIOHTTP1
import StoreKeeperAPI
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The customer page's support view over real HTTP: the grant, revoke, extend and erase forms, each behind the
/// session's CSRF token, a ticked confirmation and the `support` scope; each change shows on the page and in the
/// audit log, and every refusal changes nothing.
@Suite struct DashboardSupportTests {
    typealias E2E = ServerEndToEndTests
    static let readKey = "sk_test_read_0123456789abcdefghijklmnopqr"

    /// A browser signed in with `key`.
    static func signedIn(_ base: String, key: String) async throws -> TestBrowser {
        var browser = TestBrowser(base: base)
        let form = try await browser.go(.GET, "/dashboard/login")
        let token = try #require(TestBrowser.csrf(in: form.body))
        browser.cookie = try #require(form.headers.first(name: "Set-Cookie")?.split(separator: ";").first).description
        let signedIn = try await browser.go(.POST, "/dashboard/login", form: "csrf=\(token)&key=\(key)")
        browser.cookie = try #require(signedIn.headers.first(name: "Set-Cookie")?.split(separator: ";").first)
            .description
        return browser
    }

    /// A server on SQLite whose app also has ``readKey``, a secret key of scope `read`.
    static func withReadKey(
        _ body: @Sendable (SimulatorHarness, E2E.Client) async throws -> Void
    ) async throws {
        try await E2E.withServers(
            "sqlite",
            adjusted: { configuration in
                configuration.apiKeys.append(
                    .init(key: Self.readKey, kind: .secret, bundleID: E2E.bundleID, scope: .read))
            }
        ) { h, client, _, _ in try await body(h, client) }
    }

    /// The customer's grants, as the API answers them.
    static func grants(_ client: E2E.Client, _ user: String = "ticket <b>1</b>") async throws -> [[String: Any]] {
        let (_, body) = try await client.call(.GET, APIPath.subscriber(user))
        return (body["subscriber"] as? [String: Any])?["grants"] as? [[String: Any]] ?? []
    }

    @Test(
        "the support view: purchases and lifetime spend; a week's grant confirmed, CSRF-guarded, scoped, shown and audited"
    )
    func grantsAWeek() async throws {
        try await Self.withReadKey { h, client in
            try await client.buy(h, "premium.monthly", customer: "ticket <b>1</b>")
            var browser = try await DashboardOfferingsTests.signedIn(client.base)
            let path = "/dashboard/subscribers?id=\(DashboardOfferingsTests.encoded("ticket <b>1</b>"))"
            let page = try await browser.go(.GET, path)
            #expect(page.status == 200 && page.body.contains("action=\"/dashboard/subscribers/grant\""))
            #expect(page.body.contains("name=\"confirm\" value=\"yes\" required"))
            #expect(page.body.contains("<h3>Purchases</h3>") && page.body.contains("<td>9.99 USD</td>"))
            #expect(page.body.contains("Lifetime spend: 9.99 USD"))
            #expect(!page.body.contains("<b>1</b>") && page.body.contains("value=\"ticket &lt;b&gt;1&lt;/b&gt;\""))
            let csrf = try #require(TestBrowser.csrf(in: page.body))
            let id = DashboardOfferingsTests.encoded("ticket <b>1</b>")
            let form = "id=\(id)&entitlement=pro&duration=P1W&reason=outage"

            let forged = try await browser.go(
                .POST, "/dashboard/subscribers/grant", form: "csrf=forged&confirm=yes&\(form)")
            #expect(forged.status == 403)
            let unconfirmed = try await browser.go(.POST, "/dashboard/subscribers/grant", form: "csrf=\(csrf)&\(form)")
            #expect(unconfirmed.status == 400 && unconfirmed.body.contains("Nothing was granted"))
            let badDuration = try await browser.go(
                .POST, "/dashboard/subscribers/grant",
                form: "csrf=\(csrf)&confirm=yes&id=\(id)&entitlement=pro&duration=P2W")
            #expect(badDuration.status == 400 && badDuration.body.contains("P2W"))
            var reader = try await Self.signedIn(client.base, key: Self.readKey)
            let readPage = try await reader.go(.GET, path)
            #expect(readPage.body.contains("needs a secret key of scope support"))
            let readCSRF = try #require(TestBrowser.csrf(in: readPage.body))
            let refused = try await reader.go(
                .POST, "/dashboard/subscribers/grant", form: "csrf=\(readCSRF)&confirm=yes&\(form)")
            #expect(refused.status == 403)
            #expect(try await Self.grants(client).isEmpty)

            let granted = try await browser.go(
                .POST, "/dashboard/subscribers/grant", form: "csrf=\(csrf)&confirm=yes&\(form)")
            #expect(granted.status == 303, "\(granted.body)")
            let location = try #require(granted.headers.first(name: "Location"))
            #expect(location.hasSuffix("&granted=1"))
            let after = try await browser.go(.GET, location)
            #expect(after.body.contains("Granted.") && after.body.contains("<h3>Grants</h3>"))
            #expect(after.body.contains("<td>outage</td>"))
            let grants = try await Self.grants(client)
            #expect(grants.count == 1 && grants.first?["entitlement"] as? String == "pro")
            let (_, audit) = try await client.call(.GET, "/v1/audit", key: E2E.secretKey)
            let entry = (audit["entries"] as? [[String: Any]] ?? []).last
            #expect((entry?["actor"] as? String)?.hasPrefix("dashboard:") == true, "\(audit)")
            #expect((entry?["target"] as? String)?.hasPrefix("customer:") == true, "\(audit)")
            #expect(
                entry?["route"] as? String == "POST /v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants")
        }
    }

    @Test(
        "revoke, extend and erase from the support view: each confirmed, CSRF-guarded, scoped, done and audited")
    func revokeExtendErase() async throws {
        try await Self.withReadKey { h, client in
            let (bought, _) = try await client.buy(h, "premium.monthly", customer: "desk-1")
            let (given, _) = try await client.call(
                .POST, "/v1/subscribers/desk-1/entitlements/pro/grants", key: E2E.secretKey,
                body: client.json(["duration": "P1M", "reason": "reviewer"]))
            #expect(given == 201)
            var browser = try await DashboardOfferingsTests.signedIn(client.base)
            let page = try await browser.go(.GET, "/dashboard/subscribers?id=desk-1")
            for action in ["revoke", "extend", "erase"] {
                #expect(page.body.contains("action=\"/dashboard/subscribers/\(action)\""), "\(action)")
            }
            let csrf = try #require(TestBrowser.csrf(in: page.body))
            var reader = try await Self.signedIn(client.base, key: Self.readKey)
            let readPage = try await reader.go(.GET, "/dashboard/subscribers?id=desk-1")
            #expect(!readPage.body.contains("action=\"/dashboard/subscribers/erase\""))
            let readCSRF = try #require(TestBrowser.csrf(in: readPage.body))
            let refused = try await reader.go(
                .POST, "/dashboard/subscribers/erase", form: "csrf=\(readCSRF)&confirm=yes&id=desk-1")
            #expect(refused.status == 403 && refused.body.contains("Nothing was erased"))

            let revoke = "id=desk-1&entitlement=pro"
            let forged = try await browser.go(
                .POST, "/dashboard/subscribers/revoke", form: "csrf=x&confirm=yes&\(revoke)")
            let unconfirmed = try await browser.go(
                .POST, "/dashboard/subscribers/revoke", form: "csrf=\(csrf)&\(revoke)")
            #expect(forged.status == 403 && unconfirmed.status == 400)
            #expect(try await Self.grants(client, "desk-1").first?["active"] as? Bool == true)
            let revoked = try await browser.go(
                .POST, "/dashboard/subscribers/revoke", form: "csrf=\(csrf)&confirm=yes&\(revoke)")
            #expect(revoked.status == 303 && revoked.headers.first(name: "Location")?.hasSuffix("done=revoked") == true)
            #expect(
                try await browser.go(.GET, "/dashboard/subscribers?id=desk-1&done=revoked").body.contains("Revoked."))
            #expect(try await Self.grants(client, "desk-1").first?["active"] as? Bool == false)

            let before = try await client.subscription("desk-1")?["expires_at"] as? String
            let extend = "id=desk-1&original_transaction_id=\(bought.originalTransactionID)&reason=service_issue"
            let tooMany = try await browser.go(
                .POST, "/dashboard/subscribers/extend", form: "csrf=\(csrf)&confirm=yes&days=91&\(extend)")
            #expect(tooMany.status == 400 && tooMany.body.contains("Nothing was extended"), "\(tooMany.body)")
            #expect(try await client.subscription("desk-1")?["expires_at"] as? String == before)
            let extended = try await browser.go(
                .POST, "/dashboard/subscribers/extend", form: "csrf=\(csrf)&confirm=yes&days=3&\(extend)")
            #expect(extended.status == 303, "\(extended.body)")
            let after = try await client.subscription("desk-1")?["expires_at"] as? String
            #expect(after != nil && after != before, "the renewal date moved")

            let erased = try await browser.go(
                .POST, "/dashboard/subscribers/erase", form: "csrf=\(csrf)&confirm=yes&id=desk-1")
            #expect(
                erased.status == 303 && erased.headers.first(name: "Location") == "/dashboard/subscribers?done=erased")
            #expect(try await browser.go(.GET, "/dashboard/subscribers?done=erased").body.contains("Erased."))
            #expect(try await client.subscription("desk-1") == nil, "the customer answers as one never seen")
            let (_, audit) = try await client.call(.GET, "/v1/audit", key: E2E.secretKey)
            let routes = (audit["entries"] as? [[String: Any]] ?? []).compactMap { $0["route"] as? String }
            #expect(
                routes.suffix(3) == [
                    "DELETE /v1/subscribers/{app_user_id}/entitlements/{entitlement}/grants",
                    "POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/extend",
                    "DELETE /v1/subscribers/{app_user_id}",
                ], "\(routes)")
        }
    }

    @Test("Apple's refund history and app transaction on demand, verified; none for a customer without them")
    func refundHistory() async throws {
        try await E2E.withServers("sqlite") { h, client, _, _ in
            let (refunded, _) = try await client.buy(h, "premium.monthly", customer: "refund-1")
            try await client.buy(h, "premium.monthly", customer: "kept-1")
            try await h.simulator.refund(transactionID: refunded.transactionID, reason: 1)
            var browser = try await DashboardOfferingsTests.signedIn(client.base)
            let customer = try await browser.go(.GET, "/dashboard/subscribers?id=refund-1")
            #expect(customer.body.contains("href=\"/dashboard/subscribers/refunds?id=refund-1\""))
            let page = try await browser.go(.GET, "/dashboard/subscribers/refunds?id=refund-1")
            #expect(page.status == 200 && page.body.contains("<td>\(refunded.transactionID)</td>"), "\(page.body)")
            #expect(page.body.contains("<td>app issue</td>") && page.body.contains("<td>9.99 USD</td>"))
            let none = try await browser.go(.GET, "/dashboard/subscribers/refunds?id=kept-1")
            #expect(none.status == 200 && none.body.contains("Apple lists no refund."))
            let app = try await browser.go(.GET, "/dashboard/subscribers/app-transaction?id=kept-1")
            #expect(app.status == 200 && app.body.contains("<th>bundle id</th><td>\(E2E.bundleID)</td>"), "\(app.body)")
            #expect(app.body.contains("<th>environment</th><td>Sandbox</td>"))
            let noPurchase = try await browser.go(.GET, "/dashboard/subscribers/app-transaction?id=nobody")
            #expect(noPurchase.body.contains("No purchase to ask Apple with."))
            let unknown = try await browser.go(.GET, "/dashboard/subscribers/refunds?id=%3Cb%3Enobody")
            #expect(unknown.status == 200 && !unknown.body.contains("<b>nobody") && unknown.body.contains("no refund"))
        }
    }

    @Test("money as support reads it: milliunits rounded to the cent, with the currency")
    func money() {
        #expect(DashboardPages.money(9_990, "USD") == "9.99 USD")
        #expect(DashboardPages.money(1_005, "EUR") == "1.01 EUR")
        #expect(DashboardPages.money(-1_004, "EUR") == "-1.00 EUR")
        #expect(DashboardPages.money(120_000, "JPY") == "120.00 JPY")
        #expect(DashboardPages.money(0, nil) == "0.00")
    }
}
