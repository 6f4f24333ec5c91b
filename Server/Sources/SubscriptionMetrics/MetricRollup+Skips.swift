import Foundation

/// The metrics a write's pass can skip: those with nothing to count in its window, and those that count the same of
/// the customer before and after.
extension MetricRollup {
    /// Whether `metric` can count anything of `timelines` on `fromDay` or later: `false` only where what it counts
    /// (a subscription's first start, a trial's end, a refund, a renewal after a lapse) all lies before, so a
    /// write's window skips it, or where there is none of it at all (a trial).
    static func mayCount(_ metric: MetricName, _ timelines: [SubscriptionTimeline], fromDay: Int?) -> Bool {
        // Trials counted only where there is one (most customers never had a free trial), in any window.
        if metric == .activeTrials || metric == .trialConversion {
            guard timelines.contains(where: { $0.periods.contains(where: \.isTrial) }) else { return false }
        }
        guard let fromDay else { return true }
        func reaches(_ date: Date) -> Bool { day(of: date) >= fromDay }
        switch metric {
        case .newSubscriptions, .conversionToPaying:
            return timelines.contains { $0.periods.first.map { reaches($0.start) } ?? false }
        case .trialConversion:
            return timelines.contains { timeline in
                timeline.periods.contains { $0.isTrial && reaches(min($0.accessEnd, $0.refundedAt ?? $0.accessEnd)) }
            }
        case .refunds:
            return timelines.contains { $0.periods.contains { $0.refundedAt.map(reaches) ?? false } }
        case .graceRecoveries, .billingRecoveries:
            return timelines.contains { timeline in
                zip(timeline.periods, timeline.periods.dropFirst()).contains { previous, next in
                    reaches(next.start) && next.start > previous.expiresAt
                }
            }
        default: return true
        }
    }

    /// Whether `metric` provably counts the same of `old` and `new` (so their difference has no row of it):
    /// ``MetricName/newSubscriptions`` when every subscription's first period is the same,
    /// ``MetricName/reactivations`` when neither has a subscription sharing a group with another nor a period
    /// beginning after the access before it ended, and ``MetricName/conversionToPaying`` when both begin with the
    /// same paid periods (``paidFirsts(_:)``): a monthly customer's first renewal, inside conversion's 30 days.
    static func countsSame(_ metric: MetricName, _ old: [SubscriptionTimeline], _ new: [SubscriptionTimeline])
        -> Bool
    {
        switch metric {
        case .newSubscriptions:
            func firsts(_ timelines: [SubscriptionTimeline]) -> [String: SubscriptionPeriod?] {
                Dictionary(timelines.map { ($0.originalTransactionID, $0.periods.first) }) { first, _ in first }
            }
            return firsts(old) == firsts(new)
        case .reactivations:
            return !mayReactivate(old) && !mayReactivate(new)
        case .conversionToPaying:
            guard let before = paidFirsts(old), let after = paidFirsts(new) else { return false }
            return before == after
        default: return false
        }
    }

    /// Each environment's first period, when every one is paid (not a free trial, price above zero) and alone at
    /// its start, in its environment and across them: conversion then counts the customer converted at once, in
    /// both windows and every scope, whatever comes later. `nil` otherwise.
    static func paidFirsts(_ timelines: [SubscriptionTimeline]) -> [String: SubscriptionPeriod]? {
        let periods = timelines.flatMap(\.periods)
        var firsts: [String: SubscriptionPeriod] = [:]
        for environment in Set(periods.map(\.environment)) {
            let counted = periods.filter { $0.environment == environment }
            guard let first = counted.min(by: { $0.start < $1.start }), !first.isTrial, first.price > 0,
                counted.filter({ $0.start == first.start }).count == 1
            else { return nil }
            firsts[environment] = first
        }
        let starts = firsts.values.map(\.start)
        return Set(starts).count == starts.count ? firsts : nil
    }

    /// Whether a customer's timelines can hold a reactivation: a group shared by two subscriptions, or a period
    /// beginning after the access of those before it had ended.
    static func mayReactivate(_ timelines: [SubscriptionTimeline]) -> Bool {
        let groups = Set(timelines.map { $0.group ?? $0.originalTransactionID })
        guard groups.count == timelines.count else { return true }
        return timelines.contains { timeline in
            var accessUntil: Date?
            for period in timeline.periods.sorted(by: { $0.start < $1.start }) {
                if let until = accessUntil, period.start > until { return true }
                accessUntil = max(accessUntil ?? period.accessEnd, period.accessEnd)
            }
            return false
        }
    }
}
