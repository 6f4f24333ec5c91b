import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionMetrics

/// The dashboard's HTML: one function per page part. Everything not written here is escaped (``HTMLText``).
enum DashboardPages {
    /// The overview's charts, in order.
    static let overviewCharts: [(MetricName, String)] = [
        (.revenue, "Revenue"), (.proceeds, "Proceeds (estimated)"), (.mrr, "Monthly recurring revenue"),
        (.activeSubscriptions, "Active subscriptions"),
        (.activeTrials, "Active trials"), (.newSubscriptions, "New subscriptions"), (.churn, "Churn"),
        (.churnRate, "Churn rate"), (.refunds, "Refunds"),
        (.conversionToPaying, "Conversion to paying (7 and 30 days)"),
    ]

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#111827;background:#f9fafb}
        header{background:#111827;color:#fff;padding:10px 20px;display:flex;gap:18px;align-items:center}
        header a{color:#e5e7eb;text-decoration:none}header form{margin-left:auto}
        main{padding:20px;max-width:1400px}.headlines{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 16px}
        .headline{background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:10px 14px;min-width:150px}
        .headline .label{display:block;color:#6b7280;font-size:12px}.headline strong{font-size:20px;display:block}
        .headline .change{color:#6b7280;font-size:12px}table.cohorts td.cell{text-align:right;min-width:56px}figure{display:inline-block;margin:0 16px 16px 0;background:#fff;
        border:1px solid #e5e7eb;border-radius:6px;padding:10px;vertical-align:top}figcaption{font-weight:600}
        .axis{stroke:#9ca3af}.tick{font-size:11px;fill:#6b7280}.legend{list-style:none;padding:0;margin:4px 0 0}
        .legend li{display:inline-block;margin-right:12px}.swatch{display:inline-block;width:10px;height:10px;
        margin-right:4px;border-radius:2px}table{border-collapse:collapse;background:#fff}td,th{border:1px solid #e5e7eb;
        padding:4px 8px;text-align:left;vertical-align:top}.error{color:#b91c1c}.muted{color:#6b7280}
        """

    static func document(title: String, body: String) -> String {
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(title)) · StoreKeeper</title>"
            + "<meta name=\"viewport\" content=\"width=device-width\"><style>\(style)</style></head><body>\(body)</body></html>"
    }

    /// The sign-in page.
    static func login(csrf: String, error: String?) -> String {
        document(
            title: "Sign in",
            body: "<main><h1>StoreKeeper</h1><form method=\"post\" action=\"/dashboard/login\">"
                + "<input type=\"hidden\" name=\"csrf\" value=\"\(HTMLText.escape(csrf))\">"
                + "<label>Secret key <input type=\"password\" name=\"key\" autocomplete=\"off\" required size=\"48\"></label> "
                + "<button type=\"submit\">Sign in</button></form>"
                + (error.map { "<p class=\"error\" role=\"alert\">\(HTMLText.escape($0))</p>" } ?? "") + "</main>")
    }

    /// A page of the signed-in dashboard: navigation, the sign-out form (with the CSRF token), the body.
    static func layout(title: String, session: DashboardSessions.Session, body: String) -> String {
        document(
            title: title,
            body: "<header><strong>StoreKeeper</strong><a href=\"/dashboard\">Overview</a>"
                + "<a href=\"/dashboard/cohorts\">Cohorts</a><a href=\"/dashboard/subscribers\">Subscribers</a>"
                + "<a href=\"/dashboard/offerings\">Offerings</a>"
                + "<a href=\"/dashboard/retention\">Retention</a><a href=\"/dashboard/notifications\">Notifications</a>"
                + "<a href=\"/dashboard/webhooks\">Webhooks</a>"
                + (session.scope.includes(.admin) ? "<a href=\"/dashboard/audit\">Audit</a>" : "")
                + customerSearchForm(nil)
                + "<span class=\"muted\">\(HTMLText.escape(session.bundleID))</span>"
                + "<form method=\"post\" action=\"/dashboard/logout\"><input type=\"hidden\" name=\"csrf\" "
                + "value=\"\(session.csrf)\"><button type=\"submit\">Sign out</button></form></header>"
                + "<main><h1>\(HTMLText.escape(title))</h1>\(body)</main>")
    }

    static func message(title: String, text: String) -> String {
        document(title: title, body: "<main><h1>\(HTMLText.escape(title))</h1><p>\(HTMLText.escape(text))</p></main>")
    }

    /// The environment a page shows (`Production` unless the query says `Sandbox`, `Xcode` or `all`).
    static func environment(_ raw: String?) -> (name: String, set: Set<String>) {
        switch raw {
        case "Sandbox": ("Sandbox", ["Sandbox"])
        case "Xcode": ("Xcode", ["Xcode"])
        case "all": ("all", ["Production", "Sandbox", "Xcode"])
        default: ("Production", ["Production"])
        }
    }

    /// Whether every point of every chart is zero: nothing to show.
    static func isEmpty(_ results: [MetricResponse]) -> Bool {
        results.allSatisfy { $0.series.allSatisfy { $0.points.allSatisfy { $0.value == 0 } } }
    }

    static func environmentLinks(_ current: String, path: String) -> String {
        "<p>Environment: "
            + ["Production", "Sandbox", "all"].map { name in
                name == current
                    ? "<strong>\(name)</strong>" : "<a href=\"\(path)?environment=\(name)\">\(name)</a>"
            }.joined(separator: " · ") + "</p>"
    }

    /// The notification log: the newest notifications that verified, with what became of each, then the newest
    /// refused ones claiming the same apps since this process started, with why.
    static func notifications(_ records: [NotificationRecord], refused: [RefusedNotification]) -> String {
        var html = "<h2>Received</h2>"
        if records.isEmpty {
            html += "<p class=\"muted\">No notifications yet.</p>"
        } else {
            html +=
                "<p class=\"muted\">Each verified (signature, chain to Apple's root, app) and stored once.</p>"
                + "<table><tr><th>received</th><th>type</th><th>outcome</th><th>subscriptions</th><th>id</th></tr>"
            for record in records {
                html +=
                    "<tr><td>\(AppleDateFormat.rfc3339(record.receivedAt))</td><td>\(HTMLText.escape(record.type))</td>"
                    + "<td>verified, \(HTMLText.escape(record.status))</td>"
                    + "<td>\(HTMLText.escape(record.originalTransactionIDs.joined(separator: ", ")))</td>"
                    + "<td class=\"muted\">\(HTMLText.escape(record.notificationID))</td></tr>"
            }
            html += "</table>"
        }
        html += "<h2>Refused</h2>"
        guard !refused.isEmpty else {
            return html + "<p class=\"muted\">None refused: every notification claiming these apps verified.</p>"
        }
        html +=
            "<p class=\"muted\">Bodies claiming these apps that this server process refused since it started "
            + "(answered 4xx, nothing stored; the claim is unverified).</p><table><tr><th>received</th><th>refused as</th><th>reason</th>"
            + "<th>body SHA-256</th></tr>"
        for record in refused {
            html +=
                "<tr><td>\(AppleDateFormat.rfc3339(record.receivedAt))</td><td>\(HTMLText.escape(record.code))</td>"
                + "<td>\(HTMLText.escape(record.reason))</td>"
                + "<td class=\"muted\">\(HTMLText.escape(String(record.bodyDigest.prefix(16))))…</td></tr>"
        }
        return html + "</table>"
    }

    /// Each webhook endpoint with its newest deliveries.
    static func webhooks(_ sections: [(WebhookEndpoint, [WebhookDelivery])]) -> String {
        guard !sections.isEmpty else {
            return "<p class=\"muted\">No webhook endpoints: add one with POST /v1/webhooks.</p>"
        }
        var html = ""
        for (endpoint, deliveries) in sections {
            html +=
                "<h2>\(HTMLText.escape(endpoint.url))</h2><p class=\"muted\">\(HTMLText.escape(endpoint.id)) · "
                + "\(HTMLText.escape(endpoint.eventTypes.isEmpty ? "every event" : endpoint.eventTypes.joined(separator: ", ")))</p>"
            guard !deliveries.isEmpty else {
                html += "<p class=\"muted\">No deliveries yet.</p>"
                continue
            }
            html +=
                "<table><tr><th>event</th><th>subscriber</th><th>status</th><th>attempts</th><th>last attempt</th>"
                + "<th>result</th></tr>"
            for delivery in deliveries {
                html +=
                    "<tr><td>\(HTMLText.escape(delivery.eventType))</td><td>\(HTMLText.escape(delivery.appUserID))</td>"
                    + "<td>\(HTMLText.escape(delivery.status))</td><td>\(delivery.attempts)</td>"
                    + "<td>\(delivery.lastAttemptAt.map(AppleDateFormat.rfc3339) ?? "")</td>"
                    + "<td>\(HTMLText.escape(delivery.lastResult ?? ""))</td></tr>"
            }
            html += "</table>"
        }
        return html
    }

    static func searchForm(_ id: String?) -> String {
        "<form method=\"get\" action=\"/dashboard/subscribers\"><label>App user id "
            + "<input name=\"id\" value=\"\(HTMLText.escape(id ?? ""))\" required></label> "
            + "<button type=\"submit\">Find</button></form>"
    }

    /// A subscriber: entitlements, each subscription's state with its explanation, the event timeline with causes.
    static func subscriber(_ subscriber: Subscriber, events: [SubscriberEvent]) -> String {
        var html = "<h2>\(HTMLText.escape(subscriber.appUserID))</h2>"
        if !subscriber.aliases.isEmpty {
            html += "<p class=\"muted\">Aliases: \(subscriber.aliases.map(HTMLText.escape).joined(separator: ", "))</p>"
        }
        html += "<h3>Entitlements</h3>"
        if subscriber.entitlements.isEmpty {
            html += "<p class=\"muted\">None.</p>"
        } else {
            html += "<table><tr><th>entitlement</th><th>product</th><th>until</th></tr>"
            for entitlement in subscriber.entitlements {
                html +=
                    "<tr><td>\(HTMLText.escape(entitlement.identifier))</td><td>\(HTMLText.escape(entitlement.productID))</td>"
                    + "<td>\(entitlement.expiresAt.map(AppleDateFormat.rfc3339) ?? "forever")</td></tr>"
            }
            html += "</table>"
        }
        html += "<h3>Subscriptions</h3>"
        for subscription in subscriber.subscriptions {
            html +=
                "<p><strong>\(HTMLText.escape(subscription.productID))</strong> "
                + "(\(HTMLText.escape(subscription.originalTransactionID))): \(HTMLText.escape(subscription.status))"
                + (subscription.expiresAt.map { " until \(AppleDateFormat.rfc3339($0))" } ?? "") + "</p><ul>"
                + subscription.explanation.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>"
        }
        if subscriber.subscriptions.isEmpty { html += "<p class=\"muted\">None.</p>" }
        html += "<h3>Timeline</h3><table><tr><th>when</th><th>what</th><th>cause</th><th>detail</th></tr>"
        for event in events.reversed() {
            let detail = event.detail.keys.sorted().map { key in
                "\(key)=\(String(describing: event.detail[key]!))"
            }.joined(separator: ", ")
            html +=
                "<tr><td>\(AppleDateFormat.rfc3339(event.createdAt))</td><td>\(HTMLText.escape(event.type))</td>"
                + "<td>\(HTMLText.escape(event.cause))\(event.causeID.map { " " + HTMLText.escape($0) } ?? "")</td>"
                + "<td>\(HTMLText.escape(detail))</td></tr>"
        }
        return html + "</table>"
    }
}
