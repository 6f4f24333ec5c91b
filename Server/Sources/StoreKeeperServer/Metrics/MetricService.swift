import AppStoreModels
import Foundation
import StoreKeeperAPI
import StoreKeeperStorage
import SubscriptionMetrics

/// The metrics room: business metrics over a project, from its rollups (``MetricRollup``), or a scan of its
/// evidence while they are not whole (`GET /v1/metrics/{name}` and the dashboard's charts).
struct MetricService: Sendable {
    /// Where every subscriber's evidence is read from.
    let store: any EvidenceStore & MetricSource & RollupStore
    /// Where the retention answers the retention metrics count are read.
    let retention: any RetentionStore
    /// The apps whose projects the metrics cover.
    let apps: AppDirectory
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

    /// Several metrics over the caller's project: from its rollups when they are whole, otherwise from one reading
    /// of every subscriber's evidence a page at a time (each subscriber's timelines made once and counted by every
    /// query); the retention metrics from the recorded answers.
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
        if !accumulators.isEmpty {
            try await Self.scan(project, store: store) { _, timelines in
                for index in accumulators.indices { accumulators[index].add(timelines: timelines) }
            }
        }
        var series = accumulators.map { $0.series() }.makeIterator()
        var retentionSeries = try await self.retention(
            queries.filter(\.name.isRetention), project: project
        ).makeIterator()
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

    /// Reads every subscriber of `project` a page at a time and hands `visit` each one's timelines.
    static func scan(
        _ project: ProjectScope, store: any MetricSource, _ visit: (String, [SubscriptionTimeline]) -> Void
    ) async throws {
        var after: String?
        while true {
            try Task.checkCancellation()
            let page = try await store.evidencePage(in: project, after: after, limit: pageSize)
            for entry in page { visit(entry.storageKey, SubscriptionTimeline.timelines(entry.evidence)) }
            guard page.count == pageSize, let last = page.last else { return }
            after = last.storageKey
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
