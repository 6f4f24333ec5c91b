import Foundation
import StoreKeeperAPI
import SubscriptionMetrics

/// The overview's headline figures, from the daily series its charts already computed: MRR, ARR, revenue and
/// proceeds of the last 30 days, active subscriptions, trials and the churn rate of the last 30 days, each with its
/// change against the 30 days before.
extension DashboardPages {
    /// Days each headline period spans.
    static let headlineDays = 30

    /// One figure: what it is, its value now and before (per currency for money).
    struct Headline {
        var label: String
        var values: [(key: String, now: Double, before: Double)]
        var percent = false
    }

    /// The headlines of the overview's results (one per chart, in ``overviewCharts``' order).
    static func headlines(_ results: [MetricResponse]) -> [Headline] {
        func series(_ name: String) -> [MetricSeriesBody] {
            let all = results.first { $0.name == name }?.series ?? []
            let reporting = all.filter { $0.key.hasPrefix("reporting ") }
            return reporting.isEmpty ? all : reporting
        }
        func values(_ body: MetricSeriesBody) -> [Double] { body.points.map(\.value) }
        let days = headlineDays
        /// A snapshot now and `days` earlier.
        func snapshot(_ name: String, times factor: Double = 1) -> [(String, Double, Double)] {
            series(name).map { body in
                let points = values(body)
                return (body.key, (points.last ?? 0) * factor, points.dropLast(days).last.map { $0 * factor } ?? 0)
            }
        }
        /// A flow summed over the last `days` and the `days` before.
        func flow(_ name: String) -> [(String, Double, Double)] {
            series(name).map { body in
                let points = values(body)
                return (body.key, points.suffix(days).reduce(0, +), points.dropLast(days).suffix(days).reduce(0, +))
            }
        }
        let active = values(series("active_subscriptions").first ?? MetricSeriesBody(key: "all", points: []))
        let churned = series("churn").map(values).reduce(into: [Double](repeating: 0, count: active.count)) {
            total, next in
            for (index, value) in next.enumerated() where index < total.count { total[index] += value }
        }
        func churnRate(endingDaysAgo offset: Int) -> Double {
            let end = active.count - offset
            guard end - days - 1 >= 0, end <= churned.count else { return 0 }
            let base = active[end - days - 1]
            return base == 0 ? 0 : churned[(end - days)..<end].reduce(0, +) / base
        }
        return [
            Headline(label: "MRR", values: snapshot("mrr")),
            Headline(label: "ARR", values: snapshot("mrr", times: 12)),
            Headline(label: "Revenue, 30 days", values: flow("revenue")),
            Headline(label: "Proceeds, 30 days (estimated)", values: flow("proceeds")),
            Headline(label: "Active subscriptions", values: snapshot("active_subscriptions")),
            Headline(label: "Trials", values: snapshot("active_trials")),
            Headline(
                label: "Churn rate, 30 days",
                values: [("all", churnRate(endingDaysAgo: 0), churnRate(endingDaysAgo: days))],
                percent: true),
        ]
    }

    /// The ranges the overview offers, in days, and its default.
    static let overviewRanges = [(30, "30 days"), (90, "90 days"), (365, "a year")]

    /// The overview's range and interval as asked, or the defaults (90 days by day) for anything else.
    static func overviewRange(days: String?, interval: String?) -> (days: Int, interval: MetricInterval) {
        let days = days.flatMap(Int.init).flatMap { asked in overviewRanges.first { $0.0 == asked }?.0 } ?? 90
        return (days, interval.flatMap(MetricInterval.init(rawValue:)) ?? .day)
    }

    /// The overview's choices: environment, range and interval, each link keeping the other two.
    static func overviewControls(environment: String, days: Int, interval: MetricInterval) -> String {
        func link(_ label: String, _ chosen: Bool, environment: String, days: Int, interval: MetricInterval) -> String {
            chosen
                ? "<strong>\(label)</strong>"
                : "<a href=\"/dashboard?environment=\(environment)&amp;days=\(days)&amp;interval=\(interval.rawValue)\">\(label)</a>"
        }
        let environments = ["Production", "Sandbox", "all"].map {
            link($0, $0 == environment, environment: $0, days: days, interval: interval)
        }
        let ranges = overviewRanges.map {
            link($0.1, $0.0 == days, environment: environment, days: $0.0, interval: interval)
        }
        let intervals = MetricInterval.allCases.map {
            link("by \($0.rawValue)", $0 == interval, environment: environment, days: days, interval: $0)
        }
        return "<p>Environment: " + environments.joined(separator: " · ") + " — Range: "
            + ranges.joined(separator: " · ") + " — " + intervals.joined(separator: " · ") + "</p>"
    }

    /// The headlines as a row of figures.
    static func headlineSection(_ results: [MetricResponse]) -> String {
        var html = "<section class=\"headlines\">"
        for headline in headlines(results) {
            let shown = headline.values.isEmpty ? [("all", 0.0, 0.0)] : headline.values
            html += "<div class=\"headline\"><span class=\"label\">\(HTMLText.escape(headline.label))</span>"
            for (key, now, before) in shown {
                let name =
                    key == "all" ? "" : HTMLText.escape(key.replacingOccurrences(of: "reporting ", with: "")) + " "
                // Money (a currency's series) to the cent; counts whole.
                let value =
                    headline.percent
                    ? String(format: "%.1f %%", now * 100)
                    : key == "all" ? MetricService.number(now) : String(format: "%.2f", now)
                html += "<strong>\(name)\(value)</strong> <span class=\"change\">\(Self.change(now, before))</span>"
            }
            html += "</div>"
        }
        return html + "</section>"
    }

    /// The change from `before` to `now`, as a signed percentage, or `new` / `–` when there was nothing before.
    static func change(_ now: Double, _ before: Double) -> String {
        guard before != 0 else { return now == 0 ? "–" : "new" }
        let percent = (now - before) / abs(before) * 100
        return (percent >= 0 ? "+" : "−") + String(format: "%.1f %%", abs(percent)) + " vs the 30 days before"
    }
}
