/// One series of a metric: its key and a point per bucket, every bucket present.
public struct MetricSeriesBody: Codable, Sendable, Hashable {
    /// The series' key.
    public var key: String
    /// The buckets in order.
    public var points: [MetricPoint]

    /// Makes a series.
    public init(key: String, points: [MetricPoint]) {
        self.key = key
        self.points = points
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case key, points }
}

extension MetricSeriesBody: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .key: .required(.text)
        case .points: .required(.array(of: .type(MetricPoint.self)))
        }
    }
}
