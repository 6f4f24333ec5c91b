import Foundation
import StoreKeeperAPI

/// The Offerings page: what the app sells, the targeting rules (with their editor) and the experiments with their
/// results and enrolment over time.
extension DashboardPages {
    /// The page.
    static func offerings(
        _ book: OfferingBook, experiments: [(results: ExperimentResults, enrolment: MetricResponse)],
        rules: String, csrf: String?, error: String?, saved: Bool
    ) -> String {
        var html = "<h2>Offerings</h2>"
        if book.offerings.isEmpty {
            html += "<p class=\"muted\">No offerings yet: POST /v1/offerings.</p>"
        } else {
            html += "<table class=\"offerings\"><tr><th>offering</th><th>packages</th><th>description</th></tr>"
            for offering in book.offerings {
                let current = offering.identifier == book.currentID ? " <strong>(current)</strong>" : ""
                let packages = offering.packages.map {
                    "\(HTMLText.escape($0.identifier)): \(HTMLText.escape($0.productID))"
                }.joined(separator: "<br>")
                html +=
                    "<tr><td>\(HTMLText.escape(offering.identifier))\(current)</td><td>\(packages)</td>"
                    + "<td>\(HTMLText.escape(offering.description))</td></tr>"
            }
            html += "</table>"
        }
        html +=
            "<h2>Targeting</h2><p class=\"muted\">Rules are tried in order; the first a customer matches chooses "
            + "their offering (conditions: platforms, app_version, storefronts, locales, first_seen_days, "
            + "entitlement_state, attributes).</p>"
        if let error { html += "<p class=\"error\" role=\"alert\">\(HTMLText.escape(error))</p>" }
        if saved { html += "<p role=\"status\">Saved.</p>" }
        html += rulesForm(action: "/dashboard/targeting", text: rules, csrf: csrf)
        html += "<h2>Experiments</h2>"
        if experiments.isEmpty { html += "<p class=\"muted\">No experiments yet: POST /v1/experiments.</p>" }
        for (results, enrolment) in experiments {
            html +=
                "<h3>\(HTMLText.escape(results.identifier)) <span class=\"muted\">\(HTMLText.escape(results.status))"
                + "</span></h3>" + experimentTable(results)
                + SVGChart.line(enrolment, title: "Enrolled so far, by variant")
        }
        return html
    }

    /// One experiment's results, a row per variant.
    static func experimentTable(_ results: ExperimentResults) -> String {
        let money = results.currency.map { " (\(HTMLText.escape($0)))" } ?? ""
        var html =
            "<table class=\"experiment\"><tr><th>variant</th><th>offering</th><th>enrolled</th><th>trials</th>"
            + "<th>paid conversions</th><th>conversion</th><th>vs first (95 %)</th><th>P(best)</th>"
            + "<th>revenue / customer\(money)</th><th>proceeds / customer\(money)</th><th>vs first (95 %)</th>"
            + "<th>P(best)</th><th>refunds</th></tr>"
        func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
        func interval(_ comparison: Comparison?, percent asPercent: Bool) -> String {
            guard let comparison else { return "baseline" }
            let show = { (value: Double) in asPercent ? percent(value) : String(format: "%.2f", value) }
            return "\(show(comparison.difference)) [\(show(comparison.low)), \(show(comparison.high))]"
        }
        for variant in results.variants {
            html +=
                "<tr><td>\(HTMLText.escape(variant.identifier))</td><td>\(HTMLText.escape(variant.offeringID))</td>"
                + "<td>\(variant.enrolled)</td><td>\(variant.trials)</td><td>\(variant.paidConversions)</td>"
                + "<td>\(percent(variant.conversionRate))</td>"
                + "<td>\(interval(variant.conversionVersusBaseline, percent: true))</td>"
                + "<td>\(percent(variant.conversionProbabilityBest))</td>"
                + "<td>\(String(format: "%.2f", variant.revenuePerCustomer))</td>"
                + "<td>\(String(format: "%.2f", variant.proceedsPerCustomer))</td>"
                + "<td>\(interval(variant.proceedsVersusBaseline, percent: false))</td>"
                + "<td>\(percent(variant.proceedsProbabilityBest))</td><td>\(variant.refunds)</td></tr>"
        }
        return html + "</table>"
    }
}
