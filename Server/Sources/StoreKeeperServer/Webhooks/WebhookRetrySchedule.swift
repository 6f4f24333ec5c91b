public import Foundation

/// When a failed webhook delivery is tried again: a wait per failed attempt, each varied by ±20 % so endpoints
/// that failed together are not retried together; after the last wait's attempt fails, the delivery is `failed`.
public struct WebhookRetrySchedule: Sendable, Hashable {
    /// The waits, in seconds: after the first failed attempt, the second, and so on.
    public var delays: [Double]

    /// A schedule.
    public init(delays: [Double]) { self.delays = delays }

    /// About three days in eleven attempts: 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h, 24 h.
    public static let standard = WebhookRetrySchedule(
        delays: [30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200, 86_400, 86_400])

    /// What is wrong with a configured list of waits, or `nil`.
    public static func problem(_ delays: [Double]) -> String? {
        guard (1...50).contains(delays.count) else { return "it lists \(delays.count) waits; list 1 to 50" }
        if let bad = delays.first(where: { !($0 > 0 && $0 <= 604_800) }) {
            return "a wait is \(bad) seconds; each must be more than 0 and at most 604800 (a week)"
        }
        return nil
    }

    /// What follows a failed attempt.
    /// - Parameters:
    ///   - attempts: Attempts made, the failed one included.
    ///   - now: When it failed.
    ///   - jitter: A number in `0..<1` (random in service; fixed in tests).
    /// - Returns: When to try again, or `nil` when the schedule is used up.
    public func retry(afterAttempts attempts: Int, now: Date, jitter: Double) -> Date? {
        guard attempts >= 1, attempts <= delays.count else { return nil }
        return now.addingTimeInterval(delays[attempts - 1] * (0.8 + 0.4 * jitter))
    }
}
