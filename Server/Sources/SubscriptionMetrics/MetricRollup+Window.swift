public import Foundation

/// Where a customer's contribution can first differ between two versions of its evidence.
public enum RollupChangeStart: Sendable, Hashable {
    /// Nowhere: the timelines count the same.
    case nothing
    /// No row before this UTC day differs, and no row but ``MetricName/conversionToPaying``'s before `others`
    /// (later when only conversion's reach took the window back to a customer's first start).
    case day(Int, others: Int)
    /// Anywhere (a subscription moved between groups of the customer's subscriptions, which regroups what the
    /// commission's year and reactivations count).
    case everything
}

/// A write's window: the days its change can reach, so it counts only those (``contribution(_:proceeds:fromDay:)``).
extension MetricRollup {
    /// The first day a contribution from `new` can differ from one from `old`: the earliest date of a period
    /// that is in one and not the other, of the period before it (its churn and its trial's conversion look at
    /// the next period), of a subscription's last periods when its end reason changed, of a renewal whose grace
    /// classification changed, and of a customer's first period in an environment when a changed date falls
    /// within conversion's window after it. Everything else a row counts looks only at earlier periods.
    /// - Parameters:
    ///   - old: The customer's timelines before.
    ///   - new: The customer's timelines after.
    public static func firstChange(from old: [SubscriptionTimeline], to new: [SubscriptionTimeline])
        -> RollupChangeStart
    {
        guard case .some(let earliest) = earliestChange(from: old, to: new) else { return .everything }
        guard let others = earliest else { return .nothing }
        var found = others
        // Conversion counts a customer at its first start by what began within its longest window after it.
        let reach = (MetricAccumulator.conversionWindows.map(\.days).max() ?? 0) + 1
        for periods in [old.flatMap(\.periods), new.flatMap(\.periods)] {
            for environment in Set(periods.map(\.environment)) {
                guard let first = periods.filter({ $0.environment == environment }).map(\.start).min(),
                    found <= first.addingTimeInterval(reach * 86_400)
                else { continue }
                found = min(found, first)
            }
        }
        return .day(day(of: found), others: day(of: others))
    }

    /// The earliest date of a change every metric but ``MetricName/conversionToPaying`` can see (``firstChange``
    /// before conversion's reach): `nil` for a change of group (everything), `.some(nil)` for no change.
    static func earliestChange(from old: [SubscriptionTimeline], to new: [SubscriptionTimeline]) -> Date?? {
        let before = Dictionary(old.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { first, _ in first })
        // The subscriptions in both that share a group with `original`: a change of group that keeps them (a
        // group named for a subscription alone in it) regroups nothing.
        let shared = Set(before.keys).intersection(after.keys)
        func mates(_ original: String, _ timelines: [String: SubscriptionTimeline]) -> Set<String> {
            let group = timelines[original].map { $0.group ?? original }
            return shared.filter { other in timelines[other].map { $0.group ?? other } == group }
        }
        var dates: [Date] = []
        for original in Set(before.keys).union(after.keys) {
            let (was, now) = (before[original], after[original])
            guard was != now else { continue }
            if let was, let now, was.group != now.group, mates(original, before) != mates(original, after) {
                return nil
            }
            let (oldPeriods, newPeriods) = (was?.periods ?? [], now?.periods ?? [])
            for (periods, others) in [(oldPeriods, newPeriods), (newPeriods, oldPeriods)] {
                for (index, period) in periods.enumerated() where !others.contains(period) {
                    dates += [period.start, period.accessEnd, period.expiresAt] + [period.refundedAt].compactMap { $0 }
                    guard index > 0 else { continue }
                    let previous = periods[index - 1]
                    dates += [previous.accessEnd, previous.expiresAt] + [previous.refundedAt].compactMap { $0 }
                }
            }
            if was?.endReason != now?.endReason {
                for last in [oldPeriods.last, newPeriods.last].compactMap({ $0 }) {
                    dates += [last.accessEnd, last.expiresAt]
                }
            }
            if was?.graceEnds != now?.graceEnds {
                let (oldEnds, newEnds) = (was?.graceEnds ?? [], now?.graceEnds ?? [])
                for periods in [oldPeriods, newPeriods] {
                    for (previous, next) in zip(periods, periods.dropFirst()) {
                        func inGrace(_ ends: [Date]) -> Bool {
                            ends.contains { $0 > previous.expiresAt && next.start <= $0 }
                        }
                        if inGrace(oldEnds) != inGrace(newEnds) { dates.append(next.start) }
                    }
                }
            }
        }
        return .some(dates.min())
    }

    /// What a customer's change adds to the rollups, counting only the days from `start` on (every earlier row
    /// is the same in both): the new contribution less the old, zeros left out.
    public static func change(
        from old: [SubscriptionTimeline], to new: [SubscriptionTimeline], proceeds: ProceedsRules,
        start: RollupChangeStart
    ) -> [RollupKey: Int64] {
        let fromDay: Int?
        let othersFrom: Int?
        switch start {
        case .nothing: return [:]
        case .day(let day, let others): (fromDay, othersFrom) = (day, others)
        case .everything: (fromDay, othersFrom) = (nil, nil)
        }
        // When only conversion's reach took the window back to a first start, the other metrics count from later.
        if let fromDay, let othersFrom, othersFrom > fromDay {
            var result = counted(
                from: old, to: new, proceeds: proceeds, fromDay: othersFrom,
                metrics: Set(metrics).subtracting([.conversionToPaying]))
            guard !countsSame(.conversionToPaying, old, new) else { return result }
            let conversion = counted(
                from: old, to: new, proceeds: proceeds, fromDay: fromDay, metrics: [.conversionToPaying])
            result.merge(conversion) { $0 + $1 }
            return result
        }
        return counted(from: old, to: new, proceeds: proceeds, fromDay: fromDay, metrics: nil)
    }
}
