import Foundation

/// ``MetricName/cohorts``: a subscription joins the cohort of the month its first period began and counts, at each
/// bucket's snapshot from the one it joined in, as retained when any of its periods gives access then.
extension MetricAccumulator {
    /// Whether a cohort that began at `start` is in the query: its month is the first bucket's month or later, and
    /// it began before the range ends. (A whole month, so a range starting mid-month still has its first cohort's
    /// every member; month-long buckets start on the 1st anyway.)
    func includesCohort(beginning start: Date) -> Bool {
        guard let first = buckets.first, start < limit else { return false }
        return MetricInterval.month.start(of: start) >= MetricInterval.month.start(of: first.start)
    }

    /// The bucket a cohort member is counted from: the one holding its first start, the first for a start before
    /// the range.
    func cohortBucket(_ start: Date) -> Int { index(of: start) ?? 0 }

    /// Adds one subscription to its cohort: the denominator from its bucket on (to the last bucket with a
    /// snapshot), the numerator over every run of snapshots at which some period gives access.
    mutating func addCohort(_ timeline: SubscriptionTimeline) {
        let periods = timeline.periods
        guard let first = periods.first, counts(first), includesCohort(beginning: first.start) else { return }
        let cohortKey = key(first, suffix: Self.monthName(first.start))
        let position = cohortBucket(first.start)
        guard position < instants.count else { return }
        record(weighted(1), .denominatorDelta, key: cohortKey, bucket: position)
        record(-weighted(1), .denominatorDelta, key: cohortKey, bucket: instants.count)
        // Access as one union of intervals (start, access end].
        var merged: [(start: Date, end: Date)] = []
        for period in periods.sorted(by: { $0.start < $1.start }) where period.accessEnd > period.start {
            if let last = merged.last, period.start <= last.end {
                merged[merged.count - 1].end = max(last.end, period.accessEnd)
            } else {
                merged.append((period.start, period.accessEnd))
            }
        }
        for run in merged {
            let from = max(position, Self.firstInstant(after: run.start, in: instants))
            let to = Self.firstInstant(after: run.end, in: instants)
            if from < to { add(1, key: cohortKey, buckets: from..<to) }
        }
    }
}
