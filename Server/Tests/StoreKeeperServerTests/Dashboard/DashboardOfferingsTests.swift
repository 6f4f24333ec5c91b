import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The dashboard's Offerings page over real HTTP: offerings, the targeting editor (CSRF-guarded, checked as the API
/// checks, a refusal shown without saving) and experiments with their results and enrolment chart.
@Suite struct DashboardOfferingsTests {
    typealias E2E = ServerEndToEndTests

    /// A browser signed in with the secret key.
    static func signedIn(_ base: String) async throws -> TestBrowser {
        var browser = TestBrowser(base: base)
        let form = try await browser.go(.GET, "/dashboard/login")
        let token = try #require(TestBrowser.csrf(in: form.body))
        browser.cookie = try #require(form.headers.first(name: "Set-Cookie")?.split(separator: ";").first).description
        let signedIn = try await browser.go(.POST, "/dashboard/login", form: "csrf=\(token)&key=\(E2E.secretKey)")
        browser.cookie = try #require(signedIn.headers.first(name: "Set-Cookie")?.split(separator: ";").first)
            .description
        return browser
    }

    static func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    @Test("offerings, the targeting editor and an experiment's results, escaped and CSRF-guarded")
    func page() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            for (name, description) in [("default", "the usual"), ("sale", "<script>alert(1)</script>")] {
                let body =
                    #"{"identifier":"\#(name)","description":"\#(description)","packages":[{"identifier":"m","product_id":"premium.monthly"}]}"#
                #expect(
                    try await client.call(.POST, "/v1/offerings", key: E2E.secretKey, body: Data(body.utf8)).0 == 201)
            }
            _ = try await client.call(
                .PUT, "/v1/offerings/current", key: E2E.secretKey, body: client.json(["identifier": "default"]))
            let experiment = """
                {"identifier": "spring", "variants": [{"identifier": "a", "offering_id": "default", "weight": 50},
                  {"identifier": "b", "offering_id": "sale", "weight": 50}]}
                """
            _ = try await client.call(.POST, "/v1/experiments", key: E2E.secretKey, body: Data(experiment.utf8))
            _ = try await client.call(.POST, "/v1/experiments/spring/start", key: E2E.secretKey)
            for user in (0..<10).map({ "d\($0)" }) {
                _ = try await client.call(.GET, "/v1/subscribers/\(user)/offerings")
            }

            var browser = try await Self.signedIn(client.base)
            let page = try await browser.go(.GET, "/dashboard/offerings")
            #expect(page.status == 200)
            #expect(page.body.contains("default <strong>(current)</strong>"))
            #expect(!page.body.contains("<script>alert") && page.body.contains("&lt;script&gt;"))
            #expect(page.body.contains("<h3>spring <span class=\"muted\">running</span></h3>"))
            #expect(page.body.contains("<table class=\"experiment\">") && page.body.contains("<svg class=\"chart\""))
            #expect(page.body.contains("baseline"))
            let csrf = try #require(TestBrowser.csrf(in: page.body))

            let rules = #"{"rules": [{"identifier": "macs", "offering_id": "sale", "when": {"platforms": ["macOS"]}}]}"#
            let forged = try await browser.go(
                .POST, "/dashboard/targeting", form: "csrf=forged&rules=\(Self.encoded(rules))")
            #expect(forged.status == 403)
            let saved = try await browser.go(
                .POST, "/dashboard/targeting", form: "csrf=\(csrf)&rules=\(Self.encoded(rules))")
            #expect(saved.status == 303 && saved.headers.first(name: "Location") == "/dashboard/offerings?saved=1")
            let (_, stored) = try await client.call(.GET, "/v1/targeting", key: E2E.secretKey)
            #expect((stored["rules"] as? [[String: Any]])?.first?["identifier"] as? String == "macs")

            let bad = #"{"rules": [{"identifier": "x", "offering_id": "nothing"}]}"#
            let refused = try await browser.go(
                .POST, "/dashboard/targeting", form: "csrf=\(csrf)&rules=\(Self.encoded(bad))")
            #expect(
                refused.status == 400 && refused.body.contains("nothing") && refused.body.contains("role=\"alert\""))
            let notJSON = try await browser.go(.POST, "/dashboard/targeting", form: "csrf=\(csrf)&rules=oops")
            #expect(notJSON.status == 400)
            let (_, after) = try await client.call(.GET, "/v1/targeting", key: E2E.secretKey)
            #expect((after["rules"] as? [[String: Any]])?.first?["identifier"] as? String == "macs")
            let reread = try await browser.go(.GET, "/dashboard/offerings?saved=1")
            #expect(reread.body.contains("Saved.") && reread.body.contains("&quot;macs&quot;"))
        }
    }
}
