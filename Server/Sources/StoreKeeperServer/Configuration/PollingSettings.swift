import Foundation

/// When the server asks Apple about what it did not hear (for apps with App Store Server API credentials): the
/// poll schedule, its pace, and how often the notification history is read. In the file these are top-level keys
/// (`pollDelaySeconds`, `pollRetrySeconds`, `pollSweepSeconds`, `pollRequestsPerSecond`, `reconcileSeconds`).
public struct PollingSettings: Sendable {
    /// When subscribers are asked about: this many seconds after a period ends (`pollDelaySeconds`, default 300),
    /// every `pollRetrySeconds` while billing fails (default 14400), and every `pollSweepSeconds` otherwise
    /// (default 604800).
    public var schedule = PollSchedule()
    /// The most App Store Server API requests per second polling sends for one app. Default 10.
    public var requestsPerSecond: Double = 10
    /// How often, in seconds, each app with API credentials reads Apple's notification history for
    /// notifications that never arrived and applies them. Default 3600.
    public var reconcileSeconds: Double = 3_600

    /// The defaults.
    public init() {}

    /// Refuses a schedule, pace or interval out of range, naming the key.
    func check() throws(ConfigurationError) {
        if let problem = schedule.problem { throw ConfigurationError(problem) }
        guard requestsPerSecond >= 0.01, requestsPerSecond <= 10_000 else {
            throw ConfigurationError("pollRequestsPerSecond is \(requestsPerSecond); it must be from 0.01 to 10000")
        }
        guard reconcileSeconds >= 1, reconcileSeconds <= 86_400 else {
            throw ConfigurationError("reconcileSeconds is \(reconcileSeconds); it must be from 1 to 86400")
        }
    }
}
