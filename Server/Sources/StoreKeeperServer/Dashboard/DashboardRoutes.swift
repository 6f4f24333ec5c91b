import Foundation
import HTTPTypes
import Hummingbird
import StoreKeeperAPI
import StoreKeeperWire
import SubscriptionEngine
import SubscriptionMetrics

/// The dashboard at `/dashboard`: server-rendered HTML with SVG charts, no script. Sign-in takes a secret key
/// (`POST /dashboard/login`, form field `key`, with the form's CSRF token) and sets an HttpOnly, SameSite=Strict
/// session cookie (`Secure` over HTTPS: ``DashboardCookies``); every other form carries the session's CSRF token.
/// Each page shows the signed-in key's project.
struct DashboardRoutes: Sendable {
    let subscribers: SubscriberService
    /// The customer list (the Subscribers page without an id, and its CSV).
    let list: SubscriberList
    let metrics: MetricService
    /// The intake room's log of refused notifications.
    let refusals: RefusalLog
    let webhooks: WebhookService
    /// The offerings room (the Offerings page and its targeting editor).
    let offerings: OfferingService
    /// The experiments room (the Offerings page's results).
    let experiments: ExperimentService
    /// The retention room (the Retention page and its rules editor).
    let retention: RetentionService
    /// The support desk's search (the header's box).
    let search: CustomerSearch
    /// The audit log (the Audit page; every save here is logged).
    let audit: AuditLog
    /// Support's grants (the customer page's grant form).
    let grants: SupportGrants
    /// Apple's calls about one of a customer's purchases (the refund history).
    let purchases: PurchaseSupport
    /// Renewal-date extensions (the customer page's extend form).
    let extensions: SupportExtensions
    /// A customer's data (the customer page's erase form).
    let data: CustomerData
    let authenticator: Authenticator
    let sessions: DashboardSessions

    func addRoutes(to router: Router<BasicRequestContext>) {
        addOfferingRoutes(to: router)
        addRetentionRoutes(to: router)
        addCSVRoutes(to: router)
        addSearchRoutes(to: router)
        addAuditRoutes(to: router)
        addSupportRoutes(to: router)
        router.get("dashboard/login") { request, _ in Self.signInForm(request, error: nil) }
        router.post("dashboard/login") { request, _ in try await signIn(request) }
        router.post("dashboard/logout") { request, _ in
            try await withSession(request) { token, session in
                let fields = HTMLText.formFields(try await Self.formBody(request))
                guard fields["csrf"] == session.csrf else { return Self.forbidden() }
                sessions.remove(token)
                return Self.redirect(
                    "/dashboard/login",
                    cookie: DashboardCookies.set(DashboardCookies.session, "", maxAge: 0, for: request))
            }
        }
        router.get("dashboard") { request, _ in
            try await withSession(request) { _, session in
                let asked: String? = request.uri.queryParameters.get("environment").map { String($0) }
                var environment = DashboardPages.environment(asked)
                let (days, interval) = DashboardPages.overviewRange(
                    days: request.uri.queryParameters.get("days").map { String($0) },
                    interval: request.uri.queryParameters.get("interval").map { String($0) })
                let now = subscribers.now()
                func charts(_ environments: Set<String>, days: Int = days, interval: MetricInterval = interval)
                    async throws -> [MetricResponse]
                {
                    let queries = DashboardPages.overviewCharts.map { name, _ in
                        MetricQuery(
                            name: name, from: now - Double(days) * 86_400, to: now, interval: interval,
                            environments: environments, now: now)
                    }
                    return try await metrics.metrics(queries, bundleID: session.bundleID)
                }
                var results = try await charts(environment.set)
                var note = ""
                // A project with Sandbox data only (the demo, a team before launch) opens on what it has.
                if asked == nil, DashboardPages.isEmpty(results) {
                    let sandbox = DashboardPages.environment("Sandbox")
                    let tried = try await charts(sandbox.set)
                    if !DashboardPages.isEmpty(tried) {
                        (environment, results) = (sandbox, tried)
                        note = "<p class=\"muted\">Showing Sandbox: this project has no Production data yet.</p>"
                    }
                }
                let drawn = zip(results, DashboardPages.overviewCharts).map { result, chart in
                    SVGChart.line(
                        result, title: chart.1,
                        csv: Self.csvLink(
                            chart.0, environment: environment.name, days: days, interval: interval, now: now))
                }
                // The headlines compare 30-day windows of daily points: the charts' own when they are those.
                let daily =
                    interval == .day && days >= 2 * DashboardPages.headlineDays + 1
                    ? results : try await charts(environment.set, days: 90, interval: .day)
                return Self.page(
                    DashboardPages.layout(
                        title: "Overview", session: session,
                        body: DashboardPages.overviewControls(
                            environment: environment.name, days: days, interval: interval)
                            + note + DashboardPages.headlineSection(daily) + drawn.joined()))
            }
        }
        router.get("dashboard/cohorts") { request, _ in
            try await withSession(request) { _, session in
                let environment = DashboardPages.environment(request.uri.queryParameters.get("environment"))
                let now = subscribers.now()
                let queries = [MetricName.cohorts, .newSubscriptions].map { name in
                    MetricQuery(
                        name: name, from: now - 365 * 86_400, to: now, interval: .month,
                        environments: environment.set, now: now)
                }
                let answers = try await metrics.metrics(queries, bundleID: session.bundleID)
                let csv = Self.csvLink(.cohorts, environment: environment.name, days: 365, interval: .month, now: now)
                return Self.page(
                    DashboardPages.layout(
                        title: "Cohorts", session: session,
                        body: DashboardPages.environmentLinks(environment.name, path: "/dashboard/cohorts")
                            + "<p>Each row is the subscriptions that began in a month; each cell, the share of them "
                            + "with access at the end of that many months since (month 0: the month itself). "
                            + "<a class=\"csv\" href=\"\(HTMLText.escape(csv))\">CSV</a></p>"
                            + DashboardPages.cohortTable(answers[0], sizes: answers[1])))
            }
        }
        router.get("dashboard/notifications") { request, _ in
            try await withSession(request) { _, session in
                let apps = subscribers.apps.bundleIDs(in: try subscribers.apps.project(session.bundleID))
                let notifications = try await subscribers.store.recentNotifications(bundleIDs: apps, limit: 200)
                let refused = refusals.recent(bundleIDs: apps, limit: 50)
                return Self.page(
                    DashboardPages.layout(
                        title: "Notifications", session: session,
                        body: DashboardPages.notifications(notifications, refused: refused)))
            }
        }
        router.get("dashboard/webhooks") { request, _ in
            try await withSession(request) { _, session in
                var sections: [(WebhookEndpoint, [WebhookDelivery])] = []
                for endpoint in try await webhooks.list(bundleID: session.bundleID).endpoints {
                    let log = try await webhooks.deliveries(
                        endpointID: endpoint.id, status: nil, bundleID: session.bundleID)
                    sections.append((endpoint, Array(log.deliveries.prefix(100))))
                }
                return Self.page(
                    DashboardPages.layout(
                        title: "Webhooks", session: session, body: DashboardPages.webhooks(sections)))
            }
        }
        router.get("dashboard/subscribers") { request, _ in
            try await withSession(request) { _, session in
                // Exact, as the API reads it: trimmed, " victim" would open victim's page.
                let id = request.uri.queryParameters.get("id").map { String($0) }
                var body = DashboardPages.searchForm(id)
                if let id, !id.isEmpty {
                    let document = try await subscribers.subscriberDocument(
                        appUserID: id, project: try subscribers.apps.project(session.bundleID), personal: true)
                    let answer = try APICoding.decoder().decode(SubscriberResponse.self, from: Data(document))
                    let events = try await subscribers.events(appUserID: id, bundleID: session.bundleID)
                    if request.uri.queryParameters.get("granted") != nil {
                        body += "<p class=\"saved\">Granted.</p>"
                    }
                    body += DashboardPages.done(request.uri.queryParameters.get("done").map { String($0) })
                    body += DashboardPages.subscriber(answer.subscriber, events: events.events)
                    body += DashboardPages.purchases(
                        try await transactions(of: answer.subscriber.appUserID, bundleID: session.bundleID))
                    body += DashboardPages.appleLinks(answer.subscriber.appUserID)
                    body += DashboardPages.grants(
                        answer.subscriber.grants, appUserID: answer.subscriber.appUserID, session: session)
                    body += DashboardPages.extendForms(answer.subscriber, session: session)
                    body += DashboardPages.grantForm(
                        appUserID: answer.subscriber.appUserID,
                        entitlements: Set(subscribers.engine.configuration.entitlements.values.joined()).sorted(),
                        session: session)
                    body += DashboardPages.eraseForm(appUserID: answer.subscriber.appUserID, session: session)
                } else {
                    body += DashboardPages.done(request.uri.queryParameters.get("done").map { String($0) })
                    body += try await customers(request, bundleID: session.bundleID)
                }
                return Self.page(DashboardPages.layout(title: "Subscribers", session: session, body: body))
            }
        }
        router.get("dashboard/subscribers.csv") { request, _ in
            try await withSession(request) { _, session in
                let values = Self.customerFilters(request)
                let filter = try SubscriberList.Filter { values[$0] }
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "text/csv; charset=utf-8",
                        .contentDisposition: "attachment; filename=\"subscribers.csv\"",
                    ],
                    body: try await list.csv(filter: filter, cursor: nil, bundleID: session.bundleID))
            }
        }
    }

    /// Every transaction of the customer's stored evidence, each as its observations fold.
    func transactions(of appUserID: String, bundleID: String) async throws -> [Transaction] {
        let project = try subscribers.apps.project(bundleID)
        guard let snapshot = try await subscribers.store.snapshot(appUserID, in: project) else { return [] }
        let evidence = try subscribers.store.decodeEvidence(snapshot)
        return evidence.mergedTransactions
    }

    /// The filters of a customer-list request (empty values left out).
    static func customerFilters(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for name in DashboardPages.customerFilters {
            if let value = request.uri.queryParameters.get(name).map({ String($0) }), !value.isEmpty {
                values[name] = value
            }
        }
        return values
    }

    /// The customer list part of the Subscribers page: the filter form and a page (a filter that is not one says
    /// why instead).
    func customers(_ request: Request, bundleID: String) async throws -> String {
        let values = Self.customerFilters(request)
        var html = "<h2>Customers</h2>" + DashboardPages.customerFilterForm(values)
        do {
            let filter = try SubscriberList.Filter { values[$0] }
            let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
            let page = try await list.page(filter: filter, cursor: cursor, count: 100, bundleID: bundleID)
            html += DashboardPages.customerTable(page, filters: values)
        } catch let error as ServiceError {
            html += "<p class=\"error\">\(HTMLText.escape(error.message))</p>"
        }
        return html
    }

    /// `POST /dashboard/login`: a secret key signs in; anything else shows the form again with the reason (a page,
    /// not an error status: the browser shows the form, and no session is made). The form's CSRF token must match
    /// the sign-in cookie the form came with, so another site cannot sign a browser in to an attacker's session.
    func signIn(_ request: Request) async throws -> Response {
        let fields = HTMLText.formFields(try await Self.formBody(request))
        guard let expected = DashboardCookies.value(DashboardCookies.signIn, in: request), expected.count == 64,
            let sent = fields["csrf"], ConstantTime.equal(sent, expected)
        else {
            return Self.signInForm(request, error: "The form expired. Sign in again.", status: .forbidden)
        }
        let key = fields["key"] ?? ""
        guard !key.isEmpty, key.utf8.count < 512, let record = try await authenticator.record(forKey: key) else {
            return Self.signInForm(request, error: "That key is not valid.")
        }
        guard record.kind == .secret else {
            return Self.signInForm(request, error: "The dashboard needs a secret key (sk_…), not a public one.")
        }
        let (token, _) = sessions.create(bundleID: record.bundleID, keyHash: Authenticator.hash(key))
        return Self.redirect(
            "/dashboard",
            cookie: DashboardCookies.set(
                DashboardCookies.session, token, maxAge: Int(DashboardSessions.lifetime), for: request))
    }

    /// The sign-in form with its CSRF token: the token of the browser's sign-in cookie, or a new one set with it.
    static func signInForm(_ request: Request, error: String?, status: HTTPResponse.Status = .ok) -> Response {
        let kept = DashboardCookies.value(DashboardCookies.signIn, in: request).flatMap { $0.count == 64 ? $0 : nil }
        let token = kept ?? DashboardSessions.randomToken()
        var response = page(DashboardPages.login(csrf: token, error: error), status: status)
        if kept == nil {
            response.headers[.setCookie] = DashboardCookies.set(
                DashboardCookies.signIn, token, maxAge: 3_600, for: request)
        }
        return response
    }

    /// Runs `body` for a signed-in request; others go to the sign-in page.
    func withSession(
        _ request: Request, _ body: (String, DashboardSessions.Session) async throws -> Response
    ) async throws -> Response {
        let token = DashboardCookies.value(DashboardCookies.session, in: request)
        guard let token, let session = sessions.session(token) else { return Self.redirect("/dashboard/login") }
        // A session lives no longer than the key that made it: a rotated-out key signs its sessions out.
        guard let record = try await authenticator.record(forHash: session.keyHash), record.kind == .secret else {
            sessions.remove(token)
            return Self.redirect("/dashboard/login")
        }
        var current = session
        current.scope = Authenticator.scope(of: record)
        return try await body(token, current)
    }

    static func formBody(_ request: Request) async throws -> String {
        let buffer = try await request.body.collect(upTo: 16 * 1024)
        return String(buffer: buffer)
    }

    /// Headers every page carries: no script may run, nothing loads from elsewhere, no framing.
    static let securityHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .contentSecurityPolicy:
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        .cacheControl: "no-store",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: securityHeaders, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func redirect(_ location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The page refusing `session` an `action` that needs `endpoint`'s scope (403, saying `outcome`), or `nil`
    /// when its key has that scope: a dashboard form is allowed exactly what its API route allows.
    static func scopeRefusal(
        _ endpoint: APIEndpoint, _ session: DashboardSessions.Session, _ action: String, _ outcome: String
    ) -> Response? {
        guard let needed = endpoint.scope, !session.scope.includes(needed) else { return nil }
        let text =
            "\(action) needs a secret key of scope \(needed.rawValue); this session's key has scope "
            + "\(session.scope.rawValue). \(outcome)"
        return page(DashboardPages.message(title: "Not allowed", text: text), status: .forbidden)
    }

    static func forbidden() -> Response {
        page(
            DashboardPages.message(
                title: "Refused",
                text: "This form's CSRF token does not match your session. Reload the page and try again."),
            status: .forbidden)
    }
}
