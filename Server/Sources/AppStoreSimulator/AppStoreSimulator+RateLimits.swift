public import Foundation

/// The Server API's rate limits (``ServerAPIRateLimits``), counted per app and endpoint on the wall clock: Apple's
/// limits hold in real time whatever the simulated date.
extension AppStoreSimulator {
    /// Counts a Server API request of `bundleID`.
    /// - Returns: `nil` when Apple answers it, else the `Retry-After` value of Apple's 429 (UNIX milliseconds).
    public func admitServerAPIRequest(bundleID: String, method: String, path: String, now: Date = Date()) -> Int64? {
        guard let endpoint = ServerAPIRateLimits.endpoint(method: method, path: path) else { return nil }
        return rateLimits.admit(
            bundleID: bundleID, endpoint: endpoint, environment: configuration.environment, now: now)
    }

    /// Sets the budget of endpoints by Apple's names (a test's smaller limits); `nil` restores Apple's.
    /// - Throws: ``SimulatorError`` `invalid_field` for an endpoint without a published limit or a budget that
    ///   is not positive.
    public func setRateLimit(_ endpoint: String, _ budget: ServerAPIRateLimits.Budget?) throws {
        guard ServerAPIRateLimits.perSecond[endpoint] != nil else {
            throw SimulatorError(
                .invalidField,
                "no published rate limit for endpoint \"\(endpoint.prefix(80))\"; one of "
                    + ServerAPIRateLimits.perSecond.keys.sorted().joined(separator: ", "))
        }
        if let budget, budget.requests < 1 || !(budget.seconds > 0 && budget.seconds <= 86_400) {
            throw SimulatorError(.invalidField, "requests must be at least 1 and seconds within 0–86400")
        }
        rateLimits.overrides[endpoint] = budget
    }
}
