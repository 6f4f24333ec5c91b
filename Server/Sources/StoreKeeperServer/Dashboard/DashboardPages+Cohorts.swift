import Foundation
import StoreKeeperAPI
import SubscriptionMetrics

/// The cohort table: one row per month of first purchase with its size, then the share of its subscriptions with
/// access at the end of month 0, 1, 2… since it began — a left-aligned triangle, each cell printed and shaded.
extension DashboardPages {
    /// The table from the `cohorts` metric (one series per cohort, by calendar month) and the months' new
    /// subscriptions (a cohort's size: the subscriptions whose first period began in its month).
    static func cohortTable(_ cohorts: MetricResponse, sizes: MetricResponse) -> String {
        let starts = (cohorts.series.first?.points ?? []).map { MetricAccumulator.monthName($0.start) }
        let counts = Dictionary(
            (sizes.series.first?.points ?? []).map { (MetricAccumulator.monthName($0.start), $0.value) },
            uniquingKeysWith: +)
        let rows = cohorts.series.sorted { $0.key < $1.key }.compactMap { series -> (String, [Double])? in
            guard let first = starts.firstIndex(of: series.key) else { return nil }
            return (series.key, series.points.dropFirst(first).map(\.value))
        }
        guard let widest = rows.map(\.1.count).max() else {
            return "<p class=\"muted\">No cohort in this range yet.</p>"
        }
        var html =
            "<table class=\"cohorts\"><tr><th>cohort</th><th>subscriptions</th>"
            + (0..<widest).map { "<th>month \($0)</th>" }.joined() + "</tr>"
        for (name, shares) in rows {
            html += "<tr><th>\(HTMLText.escape(name))</th><td>\(MetricService.number(counts[name] ?? 0))</td>"
            for share in shares {
                let shade = String(format: "%.2f", max(0.05, min(1, share)) * 0.85)
                html +=
                    "<td class=\"cell\" style=\"background:rgba(37,99,235,\(shade))"
                    + (share > 0.5 ? ";color:#fff" : "") + "\">\(Int((share * 100).rounded())) %</td>"
            }
            html += "</tr>"
        }
        return html + "</table>"
    }
}
