import Foundation

/// How webhook deliveries are made: the retry schedule, how long a receiver may take to answer, and how many
/// test events an endpoint may be sent. In the file these are top-level keys (`webhookRetrySeconds`,
/// `webhookTimeoutSeconds`, `webhookTestsPerMinute`).
public struct WebhookDeliverySettings: Sendable {
    /// How long a failed delivery waits before each next attempt, in seconds; after the last, the delivery is
    /// `failed` (redeliverable). Each wait varies by ±20 %. Default about three days in ten attempts.
    public var retrySeconds: [Double] = WebhookRetrySchedule.standard.delays
    /// How long, in seconds, one delivery may wait for its receiver's answer (the dispatcher uses at most half of
    /// `leaseSeconds`: ``ServerConfiguration/webhookRequestTimeoutSeconds``). Default 10.
    public var timeoutSeconds: Double = 10
    /// The most `test` events one endpoint may be sent through `POST /v1/webhooks/{id}/test` in a minute (counted
    /// in the database, so across replicas); past it the request answers 429 `rate_limited`. Default 10.
    public var testsPerMinute = 10

    /// The defaults.
    public init() {}

    /// Refuses a schedule, timeout or rate out of range, naming the key.
    func check() throws(ConfigurationError) {
        guard timeoutSeconds >= 1, timeoutSeconds <= 300 else {
            throw ConfigurationError("webhookTimeoutSeconds is \(timeoutSeconds); it must be from 1 to 300")
        }
        guard (1...10_000).contains(testsPerMinute) else {
            throw ConfigurationError("webhookTestsPerMinute is \(testsPerMinute); it must be from 1 to 10000")
        }
        if let problem = WebhookRetrySchedule.problem(retrySeconds) {
            throw ConfigurationError("webhookRetrySeconds: \(problem)")
        }
    }
}
