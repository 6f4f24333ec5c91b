import AppStoreModels
import Foundation
import SubscriptionMetrics

/// The query string of `GET /v1/metrics/{name}`, checked: every bad value is refused naming the parameter and
/// the value.
///
/// `from` / `to`: ISO 8601 dates (`2026-01-01`) or instants; default the 30 days up to now. `interval`: `day`
/// (default), `week` or `month`. `split`: `product`, `storefront`, `environment` or `offer_type` (the retention
/// metrics: `product`, `environment`, `rule` or `response_kind`). `environment`:
/// `Production` (default), `Sandbox`, `Xcode` or `all`. `format`: `json` (default) or `csv`.
struct MetricRequest {
    /// What to compute.
    let query: MetricQuery
    /// Whether to answer in CSV.
    let csv: Bool

    /// The most buckets one answer may hold (ten years of days).
    static let maximumBuckets = 3_700

    /// Reads a request.
    /// - Parameters:
    ///   - name: The path's metric name.
    ///   - parameter: The query string's value of a parameter.
    ///   - now: The server's clock.
    /// - Throws: ``ServiceError`` 404 `unknown_metric` or 400 `invalid_parameter`.
    init(name: String, parameter: (String) -> String?, now: Date) throws(ServiceError) {
        guard let metric = MetricName(rawValue: name) else {
            throw ServiceError(
                .notFound, .unknownMetric,
                "no metric \"\(name.prefix(64))\"; one of \(MetricName.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        func invalid(_ key: String, _ value: String, _ expected: String) -> ServiceError {
            ServiceError.invalid(.invalidParameter, "\(key)=\"\(value.prefix(64))\": expected \(expected)")
        }
        func date(_ key: String) throws(ServiceError) -> Date? {
            guard let text = parameter(key) else { return nil }
            if let instant = AppleDateFormat.parse(text) { return instant }
            if let day = AppleDateFormat.parse(text + "T00:00:00Z") { return day }
            throw invalid(key, text, "an ISO 8601 date (2026-01-31) or instant")
        }
        let to = try date("to") ?? now
        let from = try date("from") ?? to.addingTimeInterval(-30 * 86_400)
        guard from < to else {
            throw ServiceError.invalid(.invalidParameter, "from must be before to")
        }
        let interval: MetricInterval
        if let text = parameter("interval") {
            guard let value = MetricInterval(rawValue: text) else {
                throw invalid("interval", text, "day, week or month")
            }
            interval = value
        } else {
            interval = .day
        }
        var split: MetricSplit?
        if let text = parameter("split") {
            let allowed =
                metric.isRetention
                ? RetentionAccumulator.splits : Set(MetricSplit.allCases).subtracting([.rule, .responseKind])
            guard let value = MetricSplit(rawValue: text), allowed.contains(value) else {
                throw invalid(
                    "split", text,
                    MetricSplit.allCases.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
                        + " for \(metric.rawValue)")
            }
            split = value
        }
        let environments: Set<String>
        switch parameter("environment") {
        case nil, "Production": environments = ["Production"]
        case "Sandbox": environments = ["Sandbox"]
        case "Xcode": environments = ["Xcode"]
        case "all": environments = ["Production", "Sandbox", "Xcode"]
        case let other?: throw invalid("environment", other, "Production, Sandbox, Xcode or all")
        }
        switch parameter("format") {
        case nil, "json": csv = false
        case "csv": csv = true
        case let other?: throw invalid("format", other, "json or csv")
        }
        // A cheap bound first (a month is at least 28 days), so an absurd range is refused without counting it.
        let shortest: Double =
            switch interval {
            case .day: 1
            case .week: 7
            case .month: 28
            }
        let buckets =
            to.timeIntervalSince(from) / 86_400 / shortest > Double(Self.maximumBuckets) + 2
            ? Self.maximumBuckets + 1 : interval.buckets(from: from, to: to).count
        guard buckets <= Self.maximumBuckets else {
            throw ServiceError.invalid(
                .invalidParameter, "from…to holds more than \(Self.maximumBuckets) \(interval.rawValue)s")
        }
        query = MetricQuery(
            name: metric, from: from, to: to, interval: interval, split: split, environments: environments, now: now)
    }
}
