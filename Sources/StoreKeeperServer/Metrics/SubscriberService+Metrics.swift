import AppStoreModels
import Foundation
import StoreKeeperAPI
import SubscriptionMetrics

extension SubscriberService {
    /// How many subscribers one page of a metrics scan reads.
    static let metricsPageSize = 500

    /// A metric over the caller's project, computed from every subscriber's stored evidence as it happened
    /// (`docs/metrics.md`): the project is read a page at a time, so memory holds one page.
    /// - Parameters:
    ///   - query: What to compute.
    ///   - bundleID: The caller's app (its project is read).
    /// - Returns: The series.
    func metric(_ query: MetricQuery, bundleID: String) async throws -> MetricResponse {
        let project = try project(bundleID)
        var query = query
        query.reporting = reporting
        var accumulator = MetricAccumulator(query)
        var after: String?
        while true {
            let page = try await store.evidencePage(in: project, after: after, limit: Self.metricsPageSize)
            for entry in page { accumulator.add(entry.evidence) }
            guard page.count == Self.metricsPageSize, let last = page.last else { break }
            after = last.storageKey
        }
        return MetricResponse(
            name: query.name.rawValue, interval: query.interval.rawValue,
            series: accumulator.series().map { series in
                MetricSeriesBody(
                    key: series.key, points: series.points.map { MetricPoint(start: $0.start, value: $0.value) })
            })
    }

    /// A metric's series as CSV: a header `key,start,value`, then one line per point (keys quoted).
    static func csv(_ response: MetricResponse) -> String {
        var lines = ["key,start,value"]
        for series in response.series {
            let key = "\"" + series.key.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            for point in series.points {
                lines.append("\(key),\(AppleDateFormat.rfc3339(point.start)),\(Self.number(point.value))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value without a needless fraction: 3 → `3`, 0.5 → `0.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
