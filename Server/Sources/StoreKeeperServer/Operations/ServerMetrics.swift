import Metrics
import StoreKeeperStorage

/// The server's own measurements, through swift-metrics (the composition root decides where they go: `serve`
/// sends them to a Prometheus registry shown at `/metrics`; without a backend they cost nothing). Requests by
/// route and status, with latency histograms, come from Hummingbird's metrics middleware.
enum ServerMetrics {
    /// A notification's outcome: `applied`, `duplicate`, `pending`, `recorded`, or `rejected` with its error code.
    static func notification(type: String, outcome: String) {
        Counter(label: "storekeeper_notifications_total", dimensions: [("type", type), ("outcome", outcome)])
            .increment()
    }

    /// Evidence that did not verify, by error code (`invalid_signature`, `untrusted_root`, …).
    static func verificationFailure(code: String) {
        Counter(label: "storekeeper_verification_failures_total", dimensions: [("code", code)]).increment()
    }

    /// A guest (a customer without evidence) asking for offerings while an experiment runs: `enrolled`, or
    /// `refused` when the project holds its maximum of guests (``GuestBudget``) and no enrolment is written.
    static func guestEnrolment(outcome: String) {
        Counter(label: "storekeeper_guest_enrolments_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// A webhook delivery attempt: `delivered`, `retry` or `failed`.
    static func webhookAttempt(result: String) {
        Counter(label: "storekeeper_webhook_attempts_total", dimensions: [("result", result)]).increment()
    }

    /// A poll of Apple: `learned`, `unchanged`, `skipped` or `failed`.
    static func poll(outcome: String) {
        Counter(label: "storekeeper_polls_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// A business metric answered (`GET /v1/metrics/{name}`, a dashboard chart), by where from: `rollups`,
    /// `timelines` (the project's timelines read) or `retention` (Retention Messaging's answers).
    static func metricQuery(source: String) {
        Counter(label: "storekeeper_metric_queries_total", dimensions: [("source", source)]).increment()
    }

    /// Customers the rollup audit checked against their evidence, by `result`: `match` or `differ`
    /// (``RollupAudit``).
    static func rollupAudit(matched: Int, differing: Int) {
        Counter(label: "storekeeper_rollup_audit_customers_total", dimensions: [("result", "match")])
            .increment(by: matched)
        Counter(label: "storekeeper_rollup_audit_customers_total", dimensions: [("result", "differ")])
            .increment(by: differing)
    }

    /// Projects whose summed rollup rows the audit checked against their customers, by `result`: `match` or
    /// `differ` (``RollupRowsAudit``).
    static func rollupRowsAudit(agree: Bool) {
        Counter(label: "storekeeper_rollup_audit_rows_total", dimensions: [("result", agree ? "match" : "differ")])
            .increment()
    }

    /// Notifications recovered from Apple's history.
    static func reconciled(_ count: Int) {
        Counter(label: "storekeeper_reconciled_notifications_total").increment(by: count)
    }

    /// Deliveries waiting (pending) in the outbox.
    static func outboxDepth(_ depth: Int) {
        Gauge(label: "storekeeper_outbox_depth").record(depth)
    }

    /// Each cache's size, budget, entries, lookups (hit or miss) and evictions so far, by cache name: recorded when
    /// `/metrics` is read.
    static func caches(_ usage: [String: CacheUsage]) {
        for (name, cache) in usage {
            Gauge(label: "storekeeper_cache_bytes", dimensions: [("cache", name)]).record(cache.bytes)
            Gauge(label: "storekeeper_cache_budget_bytes", dimensions: [("cache", name)]).record(cache.budget)
            Gauge(label: "storekeeper_cache_entries", dimensions: [("cache", name)]).record(cache.entries)
            Gauge(label: "storekeeper_cache_lookups", dimensions: [("cache", name), ("result", "hit")])
                .record(cache.hits)
            Gauge(label: "storekeeper_cache_lookups", dimensions: [("cache", name), ("result", "miss")])
                .record(cache.misses)
            Gauge(label: "storekeeper_cache_evictions", dimensions: [("cache", name)]).record(cache.evictions)
        }
    }

    /// How late the oldest due poll is, in seconds (0 when none is due).
    static func pollLag(_ seconds: Double) {
        Gauge(label: "storekeeper_poll_lag_seconds").record(seconds)
    }
}
