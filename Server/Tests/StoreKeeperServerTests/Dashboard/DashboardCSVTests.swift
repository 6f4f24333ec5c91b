import Foundation
import TestSupport
import Testing

/// Every dashboard chart links to its series as CSV (`/dashboard/csv/{metric}`), read with the page's session and
/// the query string of `GET /v1/metrics/{name}`; no session, no data.
@Suite struct DashboardCSVTests {
    typealias E2E = ServerEndToEndTests

    @Test("an overview chart's CSV link downloads its series; a bad metric or split is refused; no session, no data")
    func links() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            do { try await Self.check(client) } catch { Issue.record("\(error)") }
        }
    }

    static func check(_ client: ServerEndToEndTests.Client) async throws {
        do {
            var browser = try await DashboardOfferingsTests.signedIn(client.base)
            let overview = try await browser.go(.GET, "/dashboard?environment=Sandbox")
            #expect(overview.status == 200 && overview.body.contains("data-metric=\"conversion_to_paying\""))
            let marker = "class=\"csv\" href=\""
            guard let start = overview.body.range(of: marker + "/dashboard/csv/revenue?") else {
                Issue.record("no CSV link on the revenue chart: \(overview.body.prefix(3_000))")
                return
            }
            let tail = overview.body[overview.body.index(start.lowerBound, offsetBy: marker.count)...]
            let href = String(tail[..<(tail.firstIndex(of: "\"") ?? tail.endIndex)])
                .replacingOccurrences(of: "&amp;", with: "&")
            #expect(href.contains("environment=Sandbox") && href.contains("interval=day"), "\(href)")
            let csv = try await browser.go(.GET, href)
            #expect(csv.status == 200 && csv.body.hasPrefix("key,start,value\n"), "\(csv.body.prefix(200))")
            #expect(csv.headers.first(name: "Content-Type")?.hasPrefix("text/csv") == true)
            #expect(csv.headers.first(name: "Content-Disposition") == "attachment; filename=\"revenue.csv\"")

            let cohorts = try await browser.go(.GET, "/dashboard/cohorts?environment=Sandbox")
            #expect(cohorts.body.contains("class=\"csv\" href=\"/dashboard/csv/cohorts?environment=Sandbox&amp;"))
            let unknown = try await browser.go(.GET, "/dashboard/csv/nope")
            #expect(unknown.status == 404 && unknown.body.contains("no metric"))
            let split = try await browser.go(.GET, "/dashboard/csv/mrr?split=rule")
            #expect(split.status == 400 && split.body.contains("split"))

            var stranger = TestBrowser(base: client.base)
            let refused = try await stranger.go(.GET, href)
            #expect(refused.status == 303 && refused.headers.first(name: "Location") == "/dashboard/login")
            #expect(!refused.body.contains("key,start,value"))
        }
    }
}
