import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

/// The dashboard over real HTTP: sign-in with a secret key only, the session cookie's flags, CSRF on sign-out,
/// every page drawn with data, and what the pages show escaped.
@Suite struct DashboardTests {
    typealias E2E = ServerEndToEndTests

    typealias Browser = TestBrowser

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("sign in with a secret key; every page draws its charts; CSRF guards sign-out; wrong keys are refused")
    func dashboard() async throws {
        try await E2E.withServers("sqlite") { h, client, _, delivery in
            for customer in ["d1", "d2<script>"] { try await client.buy(h, "premium.monthly", customer: customer) }
            await delivery.deliverDue()
            await h.advance(months: 0.01)
            // A forgery claiming the app (a real notification, its signature flipped): refused, and kept for the log.
            let real = try #require(await h.simulator.notifications(for: E2E.bundleID).first?.signedPayload)
            let (refused, _) = try await client.call(
                .POST, "/v1/notifications/appstore", key: nil,
                body: client.json(["signedPayload": JWSTamper.flippedSignature(real)]))
            #expect(refused == 401 || refused == 422 || refused == 400, "refused with \(refused)")
            var browser = Browser(base: client.base)

            let away = try await browser.go(.GET, "/dashboard")
            #expect(away.status == 303 && away.headers.first(name: "Location") == "/dashboard/login")
            let form = try await browser.go(.GET, "/dashboard/login")
            #expect(form.status == 200 && form.body.contains("name=\"key\""))
            #expect(form.headers.first(name: "Content-Security-Policy")?.contains("default-src 'none'") == true)
            // The sign-in form's CSRF token, and the cookie it must match.
            let csrfToken = try #require(TestBrowser.csrf(in: form.body))
            let signInCookie = try #require(form.headers.first(name: "Set-Cookie")?.split(separator: ";").first)
            browser.cookie = String(signInCookie)

            let forged = try await browser.go(.POST, "/dashboard/login", form: "csrf=forged&key=\(E2E.secretKey)")
            #expect(forged.status == 403 && forged.headers.first(name: "Set-Cookie") == nil, "a forged form token")
            let wrong = try await browser.go(.POST, "/dashboard/login", form: "csrf=\(csrfToken)&key=sk_wrong")
            #expect(wrong.body.contains("not valid") && wrong.headers.first(name: "Set-Cookie") == nil)
            let publicKey = try await browser.go(
                .POST, "/dashboard/login", form: "csrf=\(csrfToken)&key=\(E2E.publicKey)")
            #expect(publicKey.body.contains("secret key") && publicKey.headers.first(name: "Set-Cookie") == nil)

            let signedIn = try await browser.go(
                .POST, "/dashboard/login", form: "csrf=\(csrfToken)&key=\(E2E.secretKey)")
            #expect(signedIn.status == 303 && signedIn.headers.first(name: "Location") == "/dashboard")
            let setCookie = try #require(signedIn.headers.first(name: "Set-Cookie"))
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            #expect(!setCookie.contains("Secure"), "over plain HTTP the cookie cannot be Secure")
            browser.cookie = String(setCookie.split(separator: ";")[0])

            let overview = try await browser.go(.GET, "/dashboard?environment=Sandbox")
            #expect(overview.status == 200)
            #expect(
                Self.count("<svg class=\"chart\"", in: overview.body) == 10,
                "revenue, proceeds, MRR, actives, trials, new, churn, churn rate, refunds, conversion")
            #expect(Self.count("class=\"csv\" href=\"/dashboard/csv/", in: overview.body) == 10, "each its CSV link")
            #expect(Self.count("<polyline class=\"series\"", in: overview.body) >= 6)
            #expect(overview.body.contains("premium.monthly") || overview.body.contains("USD: 19.98"))
            #expect(!overview.body.contains("<script"))
            // Headline figures lead: MRR (both monthly plans, in the reporting currency: a dollar is two euros),
            // ARR, revenue and proceeds of the last 30 days, actives, trials, the churn rate; each with its change.
            #expect(overview.body.contains("<section class=\"headlines\">"))
            for label in ["MRR", "ARR", "Revenue, 30 days", "Proceeds, 30 days", "Active subscriptions", "Churn rate"] {
                #expect(overview.body.contains(">\(label)"), "headline \(label)")
            }
            #expect(overview.body.contains("<strong>EUR 39.96</strong> <span class=\"change\">new</span>"))
            // With no environment asked, a project with Sandbox data only opens on Sandbox, saying so.
            let opened = try await browser.go(.GET, "/dashboard")
            #expect(opened.body.contains("<strong>Sandbox</strong>") && opened.body.contains("no Production data yet"))
            #expect(Self.count("<polyline class=\"series\"", in: opened.body) >= 6)
            let production = try await browser.go(.GET, "/dashboard?environment=Production")
            #expect(
                production.body.contains("<strong>Production</strong>")
                    && !production.body.contains("no Production data"))
            // The range and interval are the reader's: a year by month; anything else is 90 days by day.
            let year = try await browser.go(.GET, "/dashboard?environment=Sandbox&days=365&interval=month")
            #expect(year.body.contains("<strong>a year</strong>") && year.body.contains("<strong>by month</strong>"))
            #expect(
                Self.count("<svg class=\"chart\"", in: year.body) == 10 && !year.body.contains("data-points=\"91\""))
            #expect(year.body.contains("<section class=\"headlines\">"), "headlines still from daily points")
            let odd = try await browser.go(.GET, "/dashboard?environment=Sandbox&days=7&interval=hour")
            #expect(odd.body.contains("<strong>90 days</strong>") && odd.body.contains("<strong>by day</strong>"))
            let cohorts = try await browser.go(.GET, "/dashboard/cohorts?environment=Sandbox")
            // A left-aligned triangle: this month's cohort, its size (the two sandbox purchases of premium.monthly
            // and their renewals count once each: two subscriptions), month 0 at 100 %.
            #expect(cohorts.status == 200 && cohorts.body.contains("<table class=\"cohorts\">"))
            #expect(
                cohorts.body.contains("<th>month 0</th>") && cohorts.body.contains(">100 %</td>"), "\(cohorts.body)")

            // The customer list: both customers, the hostile id escaped and linked; filters; the CSV of every match.
            let customers = try await browser.go(.GET, "/dashboard/subscribers")
            #expect(customers.status == 200 && customers.body.contains("<table class=\"customers\">"))
            #expect(customers.body.contains(">d1</a>") && customers.body.contains("d2&lt;script&gt;</a>"))
            #expect(!customers.body.contains("d2<script>") && customers.body.contains("?id=d2%3Cscript%3E"))
            let revokedOnly = try await browser.go(.GET, "/dashboard/subscribers?status=revoked")
            #expect(
                revokedOnly.body.contains("No customer on this page matches") && !revokedOnly.body.contains(">d1</a>"))
            let badFilter = try await browser.go(.GET, "/dashboard/subscribers?status=%3Cb%3E")
            #expect(
                badFilter.status == 200 && badFilter.body.contains("class=\"error\"") && !badFilter.body.contains("<b>")
            )
            let csv = try await browser.go(.GET, "/dashboard/subscribers.csv?status=active")
            #expect(
                csv.status == 200 && csv.headers.first(name: "Content-Disposition")?.contains("subscribers.csv") == true
            )
            #expect(
                csv.body.hasPrefix("app_user_id,status,") && csv.body.contains("\"d2<script>\",active"), "\(csv.body)")

            let found = try await browser.go(.GET, "/dashboard/subscribers?id=d2%3Cscript%3E")
            #expect(found.status == 200)
            #expect(found.body.contains("d2&lt;script&gt;") && !found.body.contains("d2<script>"))
            #expect(found.body.contains("active") && found.body.contains("transaction_posted"))

            let log = try await browser.go(.GET, "/dashboard/notifications")
            #expect(log.status == 200 && log.body.contains("SUBSCRIBED/INITIAL_BUY"))
            let refusedPart = try #require(log.body.components(separatedBy: "<h2>Refused</h2>").last)
            #expect(refusedPart.contains("signature"), "\(refusedPart)")
            #expect(!refusedPart.contains("None refused"))
            #expect(!log.body.contains("\(E2E.bundleID):"), "subscriptions are shown by their own ids")
            let hooks = try await browser.go(.GET, "/dashboard/webhooks")
            #expect(hooks.status == 200 && hooks.body.contains("No webhook endpoints"))

            let csrf = try #require(
                overview.body.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix(64))
            #expect(try await browser.go(.POST, "/dashboard/logout", form: "csrf=forged").status == 403)
            #expect(try await browser.go(.GET, "/dashboard").status == 200, "a refused sign-out leaves the session")
            let out = try await browser.go(.POST, "/dashboard/logout", form: "csrf=\(csrf)")
            #expect(out.status == 303)
            #expect(try await browser.go(.GET, "/dashboard").status == 303, "signed out")
        }
    }

    @Test("behind an HTTPS proxy the session cookie is Secure and __Host-; a cookie planted over plain HTTP is ignored")
    func secureCookieBehindHTTPS() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            let https = [("X-Forwarded-Proto", "https")]
            let browser = TestBrowser(base: client.base)
            let form = try await browser.go(.GET, "/dashboard/login", headers: https)
            let formCookie = try #require(form.headers.first(name: "Set-Cookie"))
            #expect(formCookie.hasPrefix("__Host-storekeeper_signin=") && formCookie.contains("; Secure; Path=/;"))
            let session = try #require(try await browser.signIn(key: E2E.secretKey, headers: https))
            #expect(session.hasPrefix("__Host-storekeeper_session="))
            let signedIn = TestBrowser(base: client.base, cookie: session)
            #expect(try await signedIn.go(.GET, "/dashboard/webhooks", headers: https).status == 200)
            // The same token under the plain name (as a network attacker could plant over HTTP) is not a session
            // over HTTPS.
            let planted = TestBrowser(
                base: client.base, cookie: session.replacingOccurrences(of: "__Host-storekeeper", with: "storekeeper"))
            #expect(try await planted.go(.GET, "/dashboard/webhooks", headers: https).status == 303)
        }
    }
}
