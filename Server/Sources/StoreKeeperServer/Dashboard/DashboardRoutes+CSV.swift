import AppStoreModels
import Foundation
import Hummingbird
import SubscriptionMetrics

/// `GET /dashboard/csv/{metric}`: a chart's series as CSV for the signed-in project — the query string of
/// `GET /v1/metrics/{name}` (`from`, `to`, `interval`, `split`, `environment`), read by the same `MetricRequest`
/// and answered as its `format=csv` is, downloaded as `{metric}.csv`. Every chart links to its own.
extension DashboardRoutes {
    func addCSVRoutes(to router: Router<BasicRequestContext>) {
        router.get("dashboard/csv/:metric") { request, context in
            try await withSession(request) { _, session in
                let name = try context.parameters.require("metric")
                let asked: MetricRequest
                do {
                    asked = try MetricRequest(
                        name: name, parameter: { key in request.uri.queryParameters.get(key).map { String($0) } },
                        now: subscribers.now())
                } catch let error as ServiceError {
                    return Self.page(
                        DashboardPages.message(title: "No such chart", text: error.message),
                        status: APIError(error).status)
                }
                let answer = try await metrics.metric(asked.query, bundleID: session.bundleID)
                var headers = Self.securityHeaders
                headers[.contentType] = "text/csv; charset=utf-8"
                headers[.contentDisposition] = "attachment; filename=\"\(asked.query.name.rawValue).csv\""
                return Response(
                    status: .ok, headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: MetricService.csv(answer))))
            }
        }
    }

    /// The CSV link of a chart over `days` up to `now`.
    static func csvLink(
        _ name: MetricName, environment: String, days: Int, interval: MetricInterval, split: MetricSplit? = nil,
        now: Date
    ) -> String {
        let from = AppleDateFormat.rfc3339(now - Double(days) * 86_400)
        let to = AppleDateFormat.rfc3339(now)
        return "/dashboard/csv/\(name.rawValue)?environment=\(environment)&from=\(from)&to=\(to)"
            + "&interval=\(interval.rawValue)" + (split.map { "&split=\($0.rawValue)" } ?? "")
    }
}
