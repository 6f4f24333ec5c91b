import Foundation
import StoreKeeperAPI
import SubscriptionMetrics

/// The Retention page: how each rule did, the rules that answer Apple when a customer may cancel, one line each,
/// and their editor.
extension DashboardPages {
    /// How many weeks the page's outcomes cover.
    static let retentionWeeks = 13.0

    /// Each rule's requests, saves and save rate over the page's weeks (from `retention_requests` and
    /// `retention_saves` split by rule), then both as weekly charts.
    static func retentionOutcomes(
        _ requests: MetricResponse, _ saves: MetricResponse, environment: String, now: Date
    ) -> String {
        func totals(_ response: MetricResponse) -> [String: Double] {
            Dictionary(response.series.map { ($0.key, $0.points.reduce(0) { $0 + $1.value }) }, uniquingKeysWith: +)
        }
        let asked = totals(requests).filter { $0.value > 0 }
        let kept = totals(saves)
        var html =
            "<h2>How the rules did</h2><p class=\"muted\">The last \(Int(retentionWeeks)) weeks, \(environment): "
            + "real-time requests each rule answered (<code>none</code>: no rule did, Apple showed its default), and "
            + "the saves among them — the subscription went on after the answer (docs/metrics.md). Recent weeks "
            + "still rise as periods end.</p>"
        guard !asked.isEmpty else {
            return html + "<p class=\"muted\">No real-time requests yet.</p>"
        }
        html +=
            "<table class=\"retention-outcomes\"><tr><th>rule</th><th>requests</th><th>saves</th><th>save rate</th></tr>"
        for (rule, count) in asked.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            let saved = kept[rule] ?? 0
            html +=
                "<tr><td>\(HTMLText.escape(rule))</td><td>\(Int(count))</td><td>\(Int(saved))</td>"
                + "<td>\(Int((saved / count * 100).rounded())) %</td></tr>"
        }
        func csv(_ name: MetricName) -> String {
            DashboardRoutes.csvLink(
                name, environment: environment, days: Int(retentionWeeks) * 7, interval: .week, split: .rule, now: now)
        }
        return html + "</table>"
            + SVGChart.line(requests, title: "Retention requests by rule", csv: csv(.retentionRequests))
            + SVGChart.line(saves, title: "Retention saves by rule", csv: csv(.retentionSaves))
    }

    /// The page.
    static func retention(_ rules: RetentionRules, text: String, csrf: String?, error: String?, saved: Bool) -> String {
        var html =
            "<h2>Rules</h2><p class=\"muted\">Apple asks which retention message to show a customer about to cancel; "
            + "the first rule that matches and may answer chooses (docs/retention.md).</p>"
        if rules.rules.isEmpty {
            html += "<p class=\"muted\">No rules yet: Apple shows each product's default message.</p>"
        } else {
            html += "<table class=\"retention\"><tr><th>rule</th><th>answer</th><th>message</th></tr>"
            for rule in rules.rules {
                let detail =
                    rule.respond.alternateProduct.map { " → " + $0.productID }
                    ?? rule.respond.promotionalOffer.map { " " + $0.offerID } ?? ""
                html +=
                    "<tr><td>\(HTMLText.escape(rule.identifier))</td>"
                    + "<td>\(HTMLText.escape(rule.respond.kind + detail))</td>"
                    + "<td>\(HTMLText.escape(rule.respond.messageID ?? ""))</td></tr>"
            }
            html += "</table>"
        }
        if let error { html += "<p class=\"error\" role=\"alert\">\(HTMLText.escape(error))</p>" }
        if saved { html += "<p role=\"status\">Saved.</p>" }
        html += rulesForm(action: "/dashboard/retention", text: text, csrf: csrf)
        return html
    }
}
