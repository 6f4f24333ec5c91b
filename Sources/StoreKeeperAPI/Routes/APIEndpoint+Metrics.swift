/// The routes that read the project as a whole: its metrics and its event feed.
extension APIEndpoint {
    /// `GET /v1/metrics/{name}`: a business metric over a date range.
    public static let getMetric = APIEndpoint(
        .get, "v1/metrics/\(.metricName)", .secretKey(.read),
        APIOperation(
            "A business metric over a date range, from stored evidence (docs/metrics.md)",
            parameters: [
                .query("from", .date, "First day (UTC); default 30 days before to"),
                .query("to", .date, "End (exclusive); default now"),
                .query("interval", .named("MetricInterval"), "Resolution; default day"),
                .query(
                    "split", .named("MetricSplit"),
                    "One series per value (rule and response_kind: the retention metrics only, which do not take storefront or offer_type)"
                ),
                .query("environment", .oneOf(["Production", "Sandbox", "Xcode", "all"]), "Default Production"),
                .query("format", .oneOf(["json", "csv"]), "Default json"),
            ],
            answer: [("application/json", .type(MetricResponse.self)), ("text/csv", .text)],
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/events`: the project's event feed, in commit order, resumable by cursor.
    public static let getEventFeed = APIEndpoint(
        .get, "v1/events", .secretKey(.read),
        APIOperation(
            "The project's event feed: every subscriber event in commit order, resumable by cursor",
            parameters: [
                .query("after", .string(maxLength: 41)), .query("limit", .integer(1, 1000)),
                .query("format", .oneOf(["json", "ndjson"])),
            ],
            answer: [("application/json", .type(EventFeedResponse.self)), ("application/x-ndjson", .text)],
            errors: ["400", "401", "403", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let metricsRoutes: [APIEndpoint] = [getMetric, getEventFeed]
}
