public import Foundation

/// One bucket of a metric's series.
public struct MetricPoint: Codable, Sendable, Hashable {
    /// The bucket's start (UTC).
    public var start: Date
    /// The metric's value for the bucket.
    public var value: Double

    /// Makes a point.
    public init(start: Date, value: Double) {
        self.start = start
        self.value = value
    }

    /// The wire names.
    public enum CodingKeys: String, CodingKey, CaseIterable { case start, value }
}

extension MetricPoint: APIDocumented {
    /// What each member holds.
    public static func field(_ key: CodingKeys) -> APIField {
        switch key {
        case .start: .required(.dateTime)
        case .value: .required(.number)
        }
    }
}
