public import Foundation

/// One series of a metric: its key (the split's value and, for money, the currency) and a value per bucket.
public struct MetricSeries: Sendable, Hashable {
    /// The series' key (`all` when nothing distinguishes it).
    public var key: String
    /// Each bucket's start and value, in order, every bucket present.
    public var points: [(start: Date, value: Double)]

    /// Makes a series.
    public init(key: String, points: [(start: Date, value: Double)]) {
        self.key = key
        self.points = points
    }

    /// Equal keys and points.
    public static func == (lhs: MetricSeries, rhs: MetricSeries) -> Bool {
        lhs.key == rhs.key && lhs.points.elementsEqual(rhs.points) { $0.start == $1.start && $0.value == $1.value }
    }

    /// Hashes the key and points.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        for point in points {
            hasher.combine(point.start)
            hasher.combine(point.value)
        }
    }
}
