public import Foundation
public import SubscriptionEngine

/// What a customer's folded history (``SubscriptionEngine/fold(_:at:)``) still tells the metrics after it: each
/// subscription's folded periods merged into a few runs that stand for them, and the latest billing grace end its
/// folded renewal infos announced. Runs keep what later days are counted from — paid days of service and when paid
/// service ended (the commission's year, reactivations), the first paid start per product, storefront, offer and
/// currency (MRR movement's `new` or `reactivation`), access as one union — so a write counts its customer's days
/// from its window on (``MetricRollup/firstChange(from:to:)``) without reading the history, at a cost that does not
/// grow with it. A run is never right about the days it spans; a window that reaches them needs the history.
public struct FoldedPeriods: Sendable, Hashable {
    /// A run of folded periods: the period standing for them (first start, latest access end and expiry, summed
    /// paid days) and when the last of them began.
    public struct Run: Sendable, Hashable {
        /// The period standing for the run.
        public var period: SubscriptionPeriod
        /// The start of the run's last period.
        public var lastStart: Date

        /// Makes a run.
        public init(period: SubscriptionPeriod, lastStart: Date) {
            self.period = period
            self.lastStart = lastStart
        }
    }

    /// Per subscription (original transaction id), its runs in start order.
    public var runs: [String: [Run]]
    /// The latest billing grace end a folded renewal info announced.
    public var latestGraceEnd: Date?

    /// Makes the summary.
    public init(runs: [String: [Run]] = [:], latestGraceEnd: Date? = nil) {
        self.runs = runs
        self.latestGraceEnd = latestGraceEnd
    }

    /// The summary of `history`, leaving out the transactions `row` holds (a newer observation of them is there).
    public init(history: EvidenceSet, row: EvidenceSet) {
        self.init()
        let kept = Set(row.transactions.map(\.transactionID))
        var folded = EvidenceSet()
        for transaction in history.transactions where !kept.contains(transaction.transactionID) {
            folded.insert(transaction)
        }
        for renewal in history.renewals { folded.insert(renewal) }
        add(folded)
    }

    /// Whether nothing is folded.
    public var isEmpty: Bool { runs.isEmpty && latestGraceEnd == nil }

    /// The latest instant a run or a grace end reaches: a window must begin on a later day.
    public var latestEnd: Date? {
        let ends = runs.values.joined().map { max($0.period.accessEnd, $0.period.expiresAt) }
        return (ends + [latestGraceEnd].compactMap { $0 }).max()
    }

    /// Whether a run of `original` holds a period beginning at `start` (one the runs already stand for).
    public func holds(_ original: String, start: Date) -> Bool {
        runs[original]?.contains { $0.period.start <= start && start <= $0.lastStart } ?? false
    }

    /// Adds folded observations: their transactions' periods to the runs (those already held are skipped), their
    /// renewal infos' grace ends to the latest.
    public mutating func add(_ folded: EvidenceSet) {
        var transactions = EvidenceSet()
        for transaction in folded.transactions { transactions.insert(transaction) }
        for timeline in SubscriptionTimeline.timelines(transactions) {
            let original = timeline.originalTransactionID
            let fresh = timeline.periods.filter { !holds(original, start: $0.start) }
            guard !fresh.isEmpty else { continue }
            runs[original] = Self.merged((runs[original] ?? []) + fresh.map { Run(period: $0, lastStart: $0.start) })
        }
        for end in folded.renewals.compactMap(\.gracePeriodExpiresAt) {
            latestGraceEnd = max(latestGraceEnd ?? end, end)
        }
    }

    /// `periods` as runs: each period joins the run before it when it counts in the same classifications (product,
    /// storefront, environment, offer, currency, paid or not) and begins within the longest lapse the commission
    /// forgives of the run's access end; a run's paid days are the sum of its periods'.
    static func merged(_ runs: [Run]) -> [Run] {
        var result: [Run] = []
        for next in runs.sorted(by: { $0.period.start < $1.period.start }) {
            let period = next.period
            guard var run = result.last, sameClass(run.period, period), period.refundedAt == nil,
                run.period.refundedAt == nil,
                period.start.timeIntervalSince(run.period.accessEnd) <= ProceedsRules.longestLapse * 86_400
            else {
                var single = next
                single.period.foldedPaidDays = period.paidDays
                result.append(single)
                continue
            }
            run.period.foldedPaidDays = run.period.paidDays + period.paidDays
            run.period.accessEnd = max(run.period.accessEnd, period.accessEnd)
            run.period.expiresAt = max(run.period.expiresAt, period.expiresAt)
            run.lastStart = max(run.lastStart, next.lastStart)
            result[result.count - 1] = run
        }
        return result
    }

    static func sameClass(_ left: SubscriptionPeriod, _ right: SubscriptionPeriod) -> Bool {
        left.productID == right.productID && left.storefront == right.storefront
            && left.environment == right.environment && left.offerType == right.offerType
            && left.currency == right.currency && left.isTrial == right.isTrial
            && (left.price > 0) == (right.price > 0)
    }

    /// `timelines` with the runs among their periods (in start order), or `nil` when the runs cannot stand in:
    /// a period of the timelines begins within a run (the row repeats folded history), a run's subscription is not
    /// among them, or shares its group with another subscription (the commission's year and reactivations then
    /// interleave periods that runs merge).
    public func applied(to timelines: [SubscriptionTimeline]) -> [SubscriptionTimeline]? {
        guard !runs.isEmpty else { return timelines }
        var result = timelines
        var covered = 0
        let groups = Dictionary(grouping: timelines) { $0.group ?? $0.originalTransactionID }
        for index in result.indices {
            let original = result[index].originalTransactionID
            guard let held = runs[original] else { continue }
            let group = result[index].group ?? original
            guard groups[group]?.count == 1,
                !result[index].periods.contains(where: { holds(original, start: $0.start) })
            else { return nil }
            result[index].periods = (held.map(\.period) + result[index].periods).sorted { $0.start < $1.start }
            covered += 1
        }
        return covered == runs.count ? result : nil
    }
}
