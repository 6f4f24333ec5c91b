public import Foundation
public import SubscriptionEngine

/// When StoreKeeper asks Apple about a subscriber again, decided from the engine's answer: shortly after a
/// period ends (a renewal is due), every few hours while billing fails or an expected renewal is missing, and
/// a slow sweep otherwise. Each wait is stretched by up to `jitter` of itself, so subscribers bought together are
/// not all asked at the same instant.
public struct PollSchedule: Sendable, Hashable {
    /// How long after a period's end to ask (Apple renews before the end; this leaves it time to). Default 300 s.
    public var afterExpiry: TimeInterval = 300
    /// How often to ask while in billing retry or grace, or when a renewal was expected and not seen. Default 4 h.
    public var whileFailing: TimeInterval = 4 * 3_600
    /// How often to ask about everything else (ended, refunded). Default 7 days.
    public var sweep: TimeInterval = 7 * 86_400
    /// The most each wait is stretched, as a fraction of it. Default 0.1.
    public var jitter: Double = 0.1

    /// The defaults.
    public init() {}

    /// The next instant to ask about a customer in `state`, or `nil` when it has no subscription.
    /// - Parameters:
    ///   - state: The engine's answer at `now`.
    ///   - now: The server's clock.
    ///   - random: A number in `0..<1` (random in service; fixed in tests).
    public func next(_ state: CustomerState, now: Date, random: Double) -> Date? {
        var next: Date?
        func consider(_ base: Date, wait: TimeInterval) {
            let date = base.addingTimeInterval(wait * (1 + jitter * random))
            if next.map({ date < $0 }) ?? true { next = date }
        }
        for subscription in state.subscriptions {
            switch subscription.status {
            case .active:
                consider(max(subscription.expiresAt ?? now, now), wait: afterExpiry)
            case .inGracePeriod, .inBillingRetry:
                consider(now, wait: whileFailing)
            case .expired where subscription.willAutoRenew == true:
                // A renewal was due: asked once shortly after the period's end, then every few hours.
                if let end = subscription.expiresAt, end.addingTimeInterval(afterExpiry) > now {
                    consider(end, wait: afterExpiry)
                } else {
                    consider(now, wait: whileFailing)
                }
            case .expired, .revoked:
                consider(now, wait: sweep)
            }
        }
        return next
    }

    /// What is wrong with a schedule, or `nil`.
    public var problem: String? {
        for (name, value) in [
            ("pollDelaySeconds", afterExpiry), ("pollRetrySeconds", whileFailing), ("pollSweepSeconds", sweep),
        ]
        where !(value >= 0.01 && value <= 31_536_000) {
            return "\(name) is \(value); it must be from 0.01 to 31536000 (a year)"
        }
        return nil
    }
}
