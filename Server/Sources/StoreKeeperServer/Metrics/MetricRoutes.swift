import Hummingbird
import StoreKeeperAPI

/// The business in numbers: one metric over a date range, as JSON or CSV.
struct MetricRoutes: APIFeature {
    let metrics: MetricService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.getMetric) { call in
            let metric = try MetricRequest(
                name: try call.parameter(.metricName), parameter: call.query, now: metrics.now())
            let answer = try await metrics.metric(metric.query, bundleID: call.bundleID)
            guard metric.csv else { return try call.json(answer) }
            return Response(
                status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: MetricService.csv(answer))))
        }
    }
}
