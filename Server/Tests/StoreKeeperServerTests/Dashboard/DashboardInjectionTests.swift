import Foundation
import NIOHTTP1
import StoreKeeperWire
import TestDatabaseSupport
import TestSupport
import Testing

/// Stored markup, played over HTTP by an attacker holding no key or only the app's public key: a forged
/// notification whose JWS `alg` carries a refresh tag, an id aliased into a paying customer, and app user ids made
/// of clusters that fused a quote or `<` with a mark. Every dashboard page that shows them tokenizes to markup the
/// dashboard wrote, and every CSV answer reads back with each id one whole field.
@Suite struct DashboardInjectionTests {
    typealias E2E = ServerEndToEndTests

    static let refresh = "<meta http-equiv=\"refresh\" content=\"0;url=http://127.0.0.1:9/phish\">"
    /// A Prepend letter (U+0D4E) before `<`: one cluster, unequal to `<`.
    static let aliasPayload = "p\u{D4E}" + refresh
    /// A quote with a combining acute accent: one cluster, unequal to `"`.
    static let quotePayload = "q\"\u{301} autofocus onfocus=alert(1) x=\"\u{301}"
    /// A formula after a fused quote, for the CSV answers.
    static let formulaPayload = "=HYPERLINK(\"x\")\"\u{301},=1+1"

    /// The start tags of `html` whose attributes the dashboard never writes.
    static func injected(_ html: String) -> [String] {
        HTMLTokenizer.tokens(html).compactMap { token in
            guard case .start(let name, let attributes) = token else { return nil }
            let names = attributes.map(\.name)
            let hostile = names.contains { $0 == "http-equiv" || $0 == "autofocus" || $0.hasPrefix("on") }
            return hostile
                || name == "meta" && !names.allSatisfy({ $0 == "charset" || $0 == "name" || $0 == "content" })
                ? "<\(name) \(names)>" : nil
        }
    }

    static func encoded(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test(
        "markup from no key or the public key is shown as text on every page and in every CSV",
        arguments: TestDatabases.backends)
    func storedMarkup(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            try await client.buy(h, "premium.monthly", customer: "victim")
            try await client.buy(h, "premium.monthly", customer: "quoter", appUserID: Self.quotePayload)
            try await client.buy(h, "premium.monthly", customer: "formula", appUserID: Self.formulaPayload)
            // The public key aliases a hostile id into the paying customer (shown on the customer's page).
            let (aliased, _) = try await client.call(
                .POST, "/v1/subscribers/\(Self.encoded(Self.aliasPayload))/alias",
                body: client.json(["new_app_user_id": "victim"]))
            #expect(aliased == 200)
            // No key: a notification whose JWS header's alg is the payload.
            let header = Base64.urlEncode(
                try JSONSerialization.data(withJSONObject: ["alg": "\"\u{301}>" + Self.refresh, "x5c": [String]()]))
            // Its payload claims the app, so the refusal is listed on the app's notification log.
            let claim = try JSONSerialization.data(
                withJSONObject: ["notificationType": "SUBSCRIBED", "data": ["bundleId": E2E.bundleID]])
            let forged = header + "." + Base64.urlEncode(claim) + ".AA"
            let (refused, _) = try await client.call(
                .POST, "/v1/notifications/appstore", key: nil, body: client.json(["signedPayload": forged]))
            #expect((400..<500).contains(refused))

            let cookie = try #require(try await TestBrowser(base: client.base).signIn(key: E2E.secretKey))
            let browser = TestBrowser(base: client.base, cookie: cookie)
            let notifications = try await browser.go(.GET, "/dashboard/notifications")
            #expect(
                notifications.status == 200 && notifications.body.contains("algorithm_not_allowed"),
                "\(notifications.body.components(separatedBy: "<main").last ?? "")")
            #expect(!notifications.body.contains("phish"), "the refusal reason echoes no attacker bytes")
            for path in [
                "/dashboard/notifications", "/dashboard/subscribers", "/dashboard/subscribers?id=victim",
                "/dashboard/subscribers?id=\(Self.encoded(Self.quotePayload))", "/dashboard/webhooks",
                // The search echoes its text and lists the ids it finds.
                "/dashboard/search?q=\(Self.encoded(Self.quotePayload))",
                "/dashboard/search?q=\(Self.encoded("p\u{D4E}<meta"))",
                "/dashboard/search?q=\(Self.encoded(Self.refresh))",
            ] {
                let page = try await browser.go(.GET, path)
                #expect(page.status == 200, "\(path)")
                #expect(Self.injected(page.body).isEmpty, "\(path): \(Self.injected(page.body))")
            }
            let victim = try await browser.go(.GET, "/dashboard/subscribers?id=victim")
            #expect(victim.body.contains("p\u{D4E}&lt;meta http-equiv=&quot;refresh&quot;"), "the alias, escaped")
            let found = try await browser.go(.GET, "/dashboard/search?q=\(Self.encoded(Self.quotePayload))")
            #expect(
                found.body.contains(
                    "q&quot;\u{301} autofocus onfocus=alert(1) x=&quot;\u{301}</a></td><td>app user id"),
                "the hostile id found, as text")

            let (_, headers, csv) = try await browser.go(
                .GET, "/v1/subscribers?format=csv", headers: [("Authorization", "Bearer \(E2E.secretKey)")])
            #expect(headers.first(name: "Content-Type")?.hasPrefix("text/csv") == true)
            let dashboardCSV = try await browser.go(.GET, "/dashboard/subscribers.csv").body
            for text in [csv, dashboardCSV] {
                let records = CSVReader.records(text)
                #expect(Set(records.map(\.count)).count == 1, "a field broke out: \(records)")
                let ids = records.dropFirst().map { Array(($0.first ?? "").unicodeScalars) }
                #expect(ids.contains(Array(Self.quotePayload.unicodeScalars)))
                #expect(ids.contains(Array(("'" + Self.formulaPayload).unicodeScalars)))
                #expect(!records.joined().contains { ["=", "+", "@"].contains($0.unicodeScalars.first) })
            }
        }
    }
}
