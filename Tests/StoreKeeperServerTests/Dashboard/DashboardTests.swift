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

    /// A browser-like client that does not follow redirects and keeps one cookie.
    struct Browser {
        let base: String
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        var cookie: String?

        func go(_ method: HTTPMethod, _ path: String, form: String? = nil) async throws -> (
            status: Int, headers: HTTPHeaders, body: String
        ) {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            if let cookie { request.headers.add(name: "Cookie", value: cookie) }
            if let form {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: form))
            }
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = String(buffer: try await response.body.collect(upTo: 8 << 20))
            return (Int(response.status.code), response.headers, body)
        }
    }

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

            let wrong = try await browser.go(.POST, "/dashboard/login", form: "key=sk_wrong")
            #expect(wrong.body.contains("not valid") && wrong.headers.first(name: "Set-Cookie") == nil)
            let publicKey = try await browser.go(.POST, "/dashboard/login", form: "key=\(E2E.publicKey)")
            #expect(publicKey.body.contains("secret key") && publicKey.headers.first(name: "Set-Cookie") == nil)

            let signedIn = try await browser.go(.POST, "/dashboard/login", form: "key=\(E2E.secretKey)")
            #expect(signedIn.status == 303 && signedIn.headers.first(name: "Location") == "/dashboard")
            let setCookie = try #require(signedIn.headers.first(name: "Set-Cookie"))
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            browser.cookie = String(setCookie.split(separator: ";")[0])

            let overview = try await browser.go(.GET, "/dashboard?environment=Sandbox")
            #expect(overview.status == 200)
            #expect(Self.count("<svg class=\"chart\"", in: overview.body) == 6)
            #expect(Self.count("<polyline class=\"series\"", in: overview.body) >= 6)
            #expect(overview.body.contains("premium.monthly") || overview.body.contains("USD: 19.98"))
            #expect(!overview.body.contains("<script"))
            let cohorts = try await browser.go(.GET, "/dashboard/cohorts?environment=Sandbox")
            #expect(cohorts.status == 200 && cohorts.body.contains("<rect class=\"cell\""))

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
            try await browser.client.shutdown()
        }
    }
}
