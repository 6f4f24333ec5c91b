import AppStoreModels
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The dashboard's Retention page over real HTTP: the rules, one line each and escaped, and their editor
/// (CSRF-guarded, checked as `PUT /v1/retention/rules` checks, a refusal shown without saving).
@Suite struct DashboardRetentionTests {
    typealias E2E = ServerEndToEndTests

    @Test("the rules and their editor: saved with the session's token, refused with another, a broken rule shown")
    func page() async throws {
        try await E2E.withServers("sqlite") { h, client, _, _ in
            // The rule's message, uploaded to Apple (the server refuses rules naming one Apple lacks).
            try await h.simulator.uploadRetentionMessage(
                bundleID: E2E.bundleID, messageID: "0c9a2f44-1d3b-4e6a-8b7d-55e2c1f09a32",
                UploadMessageRequestBody(header: "Stay", body: "Basic keeps what you use most."))
            var browser = try await DashboardOfferingsTests.signedIn(client.base)
            let empty = try await browser.go(.GET, "/dashboard/retention")
            #expect(empty.status == 200 && empty.body.contains("No rules yet"))
            #expect(empty.body.contains("href=\"/dashboard/retention\""))
            let csrf = try #require(TestBrowser.csrf(in: empty.body))
            let rules = """
                {"rules": [{"identifier": "<b>stay</b>", "respond": {"alternate_product":
                  {"message_id": "0c9a2f44-1d3b-4e6a-8b7d-55e2c1f09a32", "product_id": "basic.monthly"}}}]}
                """
            let forged = try await browser.go(
                .POST, "/dashboard/retention", form: "csrf=forged&rules=\(DashboardOfferingsTests.encoded(rules))")
            #expect(forged.status == 403)
            let named = rules.replacingOccurrences(of: "<b>stay</b>", with: "stay")
            let saved = try await browser.go(
                .POST, "/dashboard/retention", form: "csrf=\(csrf)&rules=\(DashboardOfferingsTests.encoded(named))")
            #expect(saved.status == 303 && saved.headers.first(name: "Location") == "/dashboard/retention?saved=1")
            let page = try await browser.go(.GET, "/dashboard/retention?saved=1")
            #expect(page.body.contains("Saved.") && page.body.contains("<td>alternate_product → basic.monthly</td>"))

            let refused = try await browser.go(
                .POST, "/dashboard/retention", form: "csrf=\(csrf)&rules=\(DashboardOfferingsTests.encoded(rules))")
            #expect(refused.status == 400 && refused.body.contains("role=\"alert\""))
            #expect(!refused.body.contains("<b>stay</b>") && refused.body.contains("&lt;b&gt;stay"))
            let (_, stored) = try await client.call(.GET, "/v1/retention/rules", key: E2E.secretKey)
            #expect((stored["rules"] as? [[String: Any]])?.first?["identifier"] as? String == "stay")
        }
    }
}
