import Foundation

/// Reading the clock by the day (``MetricQuery/dayClock``): what has happened, and subscriptions set to renew.
extension MetricAccumulator {
    /// The end of what has happened and the end of what a bucket counts, for `query`.
    static func clock(_ query: MetricQuery) -> (end: Date, limit: Date) {
        guard query.dayClock else { return (query.now, query.to) }
        let today = MetricRollup.start(ofDay: MetricRollup.day(of: query.now))
        let toDay = MetricRollup.start(ofDay: MetricRollup.day(of: query.to))
        return (today.addingTimeInterval(86_400), toDay == query.to ? query.to : toDay.addingTimeInterval(86_400))
    }

    /// Whether something dated `date` has happened by the query's clock.
    func happened(_ date: Date) -> Bool { query.dayClock ? date < clockEnd : date <= query.now }

    /// The metrics a subscription set to renew counts as renewing on the clock's day (``MetricQuery/dayClock``).
    static let renewingMetrics: Set<MetricName> = [
        .activeSubscriptions, .activeTrials, .mrr, .arr, .churn, .churnRate, .trialConversion, .cohorts,
        .mrrMovement,
    ]

    /// `timeline` as the clock's day sees it (``MetricQuery/dayClock``): its last period, when it is set to renew
    /// and its access ends on that day, gives access to the day's end.
    static func renewing(_ timeline: SubscriptionTimeline, query: MetricQuery, clockEnd: Date)
        -> SubscriptionTimeline
    {
        guard query.dayClock, renewingMetrics.contains(query.name), let index = renewingLast(timeline),
            timeline.periods[index].accessEnd < clockEnd,
            timeline.periods[index].accessEnd >= clockEnd.addingTimeInterval(-86_400)
        else { return timeline }
        var projected = timeline
        projected.periods[index].accessEnd = clockEnd
        return projected
    }

    /// The index of a timeline's last period when the subscription is set to renew after it: not refunded, and its
    /// end reason `other` (auto-renew on, no billing trouble).
    static func renewingLast(_ timeline: SubscriptionTimeline) -> Int? {
        guard timeline.endReason == "other", let last = timeline.periods.indices.last,
            timeline.periods[last].refundedAt == nil
        else { return nil }
        return last
    }
}
