/// `GET /v1/metrics/{name}`: one metric's series over a date range.
public struct MetricResponse: Codable, Sendable, Hashable {
    /// The metric (`active_subscriptions`, `mrr`…).
    public var name: String
    /// `day`, `week` or `month`.
    public var interval: String
    /// One series per key (the split's value and, for money, the currency; `all` when nothing distinguishes them).
    public var series: [MetricSeriesBody]

    /// Makes a response.
    public init(name: String, interval: String, series: [MetricSeriesBody]) {
        self.name = name
        self.interval = interval
        self.series = series
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case name, interval, series }
}

extension MetricResponse: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .name: .required(.named("MetricName"))
        case .interval: .required(.named("MetricInterval"))
        case .series: .required(.array(of: .type(MetricSeriesBody.self)))
        }
    }
}
