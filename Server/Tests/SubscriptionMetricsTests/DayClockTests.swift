import Foundation
import Testing

@testable import SubscriptionMetrics

/// With the clock read by the day (how rollups answer), the bucket holding the clock is that day's end as the
/// evidence known says it will be: a subscription set to renew whose access ends that day — later, or earlier with
/// its renewal not heard yet — is still counted and has not churned; one turned off has churned that day.
@Suite struct DayClockTests {
    static func count(_ name: MetricName, dayClock: Bool) -> [String: Double] {
        var query = MetricQuery(
            name: name, from: MetricRollupTests.now.addingTimeInterval(-86_400), to: MetricRollupTests.now,
            interval: .day, now: MetricRollupTests.now)
        query.dayClock = dayClock
        var accumulator = MetricAccumulator(query)
        for customer in MetricRollupTests.endingToday() { accumulator.add(timelines: customer) }
        return Dictionary(uniqueKeysWithValues: accumulator.series().map { ($0.key, $0.points.last?.value ?? -1) })
    }

    @Test("read by the day: renewing subscriptions ending today count, the one turned off churned today")
    func byTheDay() {
        #expect(Self.count(.activeSubscriptions, dayClock: true) == ["all": 3])  // later, earlier, trial
        #expect(Self.count(.activeTrials, dayClock: true) == ["all": 1])
        #expect(Self.count(.mrr, dayClock: true) == ["USD": 19.98])  // later and earlier; the trial pays nothing
        #expect(Self.count(.churn, dayClock: true) == ["voluntary": 1])
        #expect(Self.count(.trialConversion, dayClock: true) == ["all": 0])  // the trial has not ended yet
    }

    @Test("read at the instant: what gives access now counts, what ended earlier today churned")
    func atTheInstant() {
        #expect(Self.count(.activeSubscriptions, dayClock: false) == ["all": 3])  // later, trial, off
        #expect(Self.count(.mrr, dayClock: false) == ["USD": 19.98])  // later and off
        #expect(Self.count(.churn, dayClock: false) == ["other": 1])  // earlier
    }
}
