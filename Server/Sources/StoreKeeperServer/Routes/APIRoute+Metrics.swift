import SubscriptionMetrics

/// The routes that read the project as a whole: its metrics and its event feed.
extension APIRoute {
    /// `GET /v1/metrics/{name}`: a business metric over a date range (the path's `:id` is the metric's name).
    public static let getMetric = APIRoute(
        .getMetric,
        APIOperation(
            "A business metric over a date range, from stored evidence (docs/metrics.md)",
            parameters: [
                .path("name", .oneOf(MetricName.allCases.map(\.rawValue))),
                .query("from", .date, "First day (UTC); default 30 days before to"),
                .query("to", .date, "End (exclusive); default now"),
                .query("interval", .oneOf(MetricInterval.allCases.map(\.rawValue)), "Resolution; default day"),
                .query(
                    "split", .oneOf(MetricSplit.allCases.map(\.rawValue)),
                    "One series per value (rule and response_kind: the retention metrics only, which do not take storefront or offer_type)"
                ),
                .query("environment", .oneOf(["Production", "Sandbox", "Xcode", "all"]), "Default Production"),
                .query("format", .oneOf(["json", "csv"]), "Default json"),
            ],
            answer: [("application/json", .named("MetricResponse")), ("text/csv", .text)],
            errors: ["400", "401", "403", "404", "5XX"]))
    /// `GET /v1/events`: the project's event feed, in commit order, resumable by cursor.
    public static let getEventFeed = APIRoute(
        .getEventFeed,
        APIOperation(
            "The project's event feed: every subscriber event in commit order, resumable by cursor",
            parameters: [
                .query("after", .string(maxLength: 41)), .query("limit", .integer(1, 1000)),
                .query("format", .oneOf(["json", "ndjson"])),
            ],
            answer: [("application/json", .named("EventFeedResponse")), ("application/x-ndjson", .text)],
            errors: ["400", "401", "403", "5XX"]))
}
