import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionMetrics

/// The metrics room: business metrics over a project, from the kept timelines or a scan of its evidence
/// (`GET /v1/metrics/{name}` and the dashboard's charts).
struct MetricService: Sendable {
    /// Where every subscriber's evidence is read from.
    let store: any EvidenceStore & MetricSource & RetentionStore & RollupStore
    /// The apps whose projects the metrics cover.
    let apps: AppDirectory
    /// Every subscriber's timelines, kept for metric queries.
    let timelineCache: MetricTimelineCache
    /// The currency metrics also report money in, with its rates (configuration `reportingCurrency`).
    let reporting: ReportingCurrency?
    /// How proceeds are estimated (configuration `smallBusinessProgram`, `storefrontTaxRates`).
    var proceeds = ProceedsRules()
    /// The server's clock.
    let now: @Sendable () -> Date

    /// How many subscribers one page of a metrics scan reads.
    static let pageSize = 500

    /// A metric over the caller's project, computed from every subscriber's stored evidence as it happened
    /// (`docs/metrics.md`): the project is read a page at a time, so memory holds one page.
    /// - Parameters:
    ///   - query: What to compute.
    ///   - bundleID: The caller's app (its project is read).
    /// - Returns: The series.
    func metric(_ query: MetricQuery, bundleID: String) async throws -> MetricResponse {
        try await metrics([query], bundleID: bundleID)[0]
    }

    /// Several metrics over the caller's project from one reading of it: each subscriber's timelines are made
    /// once and every query counts from them (a dashboard page's charts cost one pass). The timelines come from
    /// ``MetricTimelineCache`` (only subscribers changed since the last query are read), or, when it cannot serve
    /// the project, from reading every subscriber's evidence a page at a time.
    /// - Parameters:
    ///   - queries: What to compute.
    ///   - bundleID: The caller's app (its project is read).
    /// - Returns: The series of each query, in order.
    func metrics(_ queries: [MetricQuery], bundleID: String) async throws -> [MetricResponse] {
        let project = try apps.project(bundleID)
        let queries = queries.map { query in
            var query = query
            query.reporting = reporting
            query.proceeds = proceeds
            return query
        }
        let rolled = try await rollupAnswers(queries, project: project)
        var accumulators = queries.indices.filter { !queries[$0].name.isRetention && rolled[$0] == nil }.map {
            MetricAccumulator(queries[$0])
        }
        let retention = queries.filter(\.name.isRetention)
        // Timelines only when a metric counts them (retention requests alone read only the answers).
        // Timelines only when a metric counts them all (retention saves without them read the answered
        // subscriptions alone).
        let kept = !accumulators.isEmpty ? try await timelineCache.timelines(in: project, store: store) : nil
        if !accumulators.isEmpty {
            if let kept {
                accumulators = await Self.count(kept, into: accumulators)
            } else {
                try await MetricTimelineCache.scan(project, store: store) { _, timelines in
                    for index in accumulators.indices { accumulators[index].add(timelines: timelines) }
                    return true
                }
            }
        }
        var series = accumulators.map { $0.series() }.makeIterator()
        var retentionSeries = try await self.retention(retention, project: project, kept: kept).makeIterator()
        for (index, query) in queries.enumerated() {
            ServerMetrics.metricQuery(
                source: rolled[index] != nil ? "rollups" : query.name.isRetention ? "retention" : "timelines")
        }
        return queries.enumerated().map { index, query in
            let computed =
                rolled[index] ?? (query.name.isRetention ? retentionSeries.next() : series.next()) ?? []
            return MetricResponse(
                name: query.name.rawValue, interval: query.interval.rawValue,
                series: computed.map { series in
                    MetricSeriesBody(
                        key: series.key, points: series.points.map { MetricPoint(start: $0.start, value: $0.value) })
                })
        }
    }

    /// The answers rollups give (``MetricRollup``), by the query's index: every query of a metric they hold, when
    /// the store keeps them and the project's are whole; none otherwise. The clock is read by the day.
    func rollupAnswers(_ queries: [MetricQuery], project: ProjectScope) async throws -> [Int: [MetricSeries]] {
        guard store.keepsRollups, queries.contains(where: { MetricRollup.answers($0.name) }),
            try await store.rollupsReady(in: project)
        else { return [:] }
        var answers: [Int: [MetricSeries]] = [:]
        for (index, query) in queries.enumerated() where MetricRollup.answers(query.name) {
            var query = query
            query.dayClock = true
            guard let first = query.interval.buckets(from: query.from, to: query.to).first else { continue }
            let rows = try await store.rollupRows(
                in: project, metric: MetricRollup.source(of: query.name).metric, split: query.split,
                environments: query.environments, fromDay: MetricRollup.day(of: first.start),
                throughDay: MetricRollup.day(of: query.now))
            answers[index] = MetricRollup.answer(rows, query: query)
        }
        return answers
    }

    /// Counts kept timelines into `accumulators`, a share of the customers per core (merged at the end).
    static func count(_ customers: [[SubscriptionTimeline]], into accumulators: [MetricAccumulator]) async
        -> [MetricAccumulator]
    {
        let shares = customers.count < 20_000 ? 1 : max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let size = (customers.count + shares - 1) / max(1, shares)
        return await withTaskGroup(of: [MetricAccumulator].self) { group in
            for share in 0..<shares {
                let range = (share * size)..<min(customers.count, (share + 1) * size)
                group.addTask {
                    var counted = accumulators
                    for timelines in customers[range] {
                        for index in counted.indices { counted[index].add(timelines: timelines) }
                    }
                    return counted
                }
            }
            var merged: [MetricAccumulator]?
            for await counted in group {
                guard var total = merged else {
                    merged = counted
                    continue
                }
                for index in total.indices { total[index].merge(counted[index]) }
                merged = total
            }
            return merged ?? accumulators
        }
    }

    /// A metric's series as CSV: a header `key,start,value`, then one line per point (keys quoted).
    static func csv(_ response: MetricResponse) -> String {
        var lines = ["key,start,value"]
        for series in response.series {
            let key = CSVField.quoted(series.key)
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
