import Foundation
import StoreKeeperBench
import SubscriptionEngine
import SubscriptionMetrics

/// What a write adds for metric rollups (``MetricRollup/contribution(_:proceeds:)``): one customer's contribution
/// computed from its timelines, for a customer a month old and one with three years of monthly renewals; and what a
/// renewal of the three-year customer costs a write (``MetricRollup/change(from:to:proceeds:start:)`` from its
/// window, its folded history standing in as runs), and a month-old customer's first renewal (what most of
/// `scripts/load-check`'s writes are: the window reaches the first day), also with the timelines built from its
/// evidence before and after (`rollup.write.1m`: what such a write adds in all).
enum BenchRollups {
    /// A monthly subscription of `months` periods, the last ending in the future (set to renew).
    static func customer(months: Int) -> [SubscriptionTimeline] {
        SubscriptionTimeline.timelines(evidence(months: months))
    }

    /// The evidence of ``customer(months:)``.
    static func evidence(months: Int) -> EvidenceSet {
        let start = Date().addingTimeInterval(-Double(months) * 30 * 86_400 + 86_400)
        var evidence = EvidenceSet()
        for index in 0..<months {
            let from = start.addingTimeInterval(Double(index) * 30 * 86_400)
            var transaction = Transaction(
                transactionID: "t\(index)", originalTransactionID: "t0", productID: "monthly", source: .signedData)
            transaction.kind = .autoRenewable
            transaction.subscriptionGroupID = "g"
            transaction.purchaseDate = from
            transaction.expiresAt = from.addingTimeInterval(30 * 86_400)
            transaction.price = 9_990
            transaction.currency = "USD"
            transaction.storefront = "USA"
            transaction.environment = .production
            evidence.insert(transaction)
        }
        var renewal = RenewalState(originalTransactionID: "t0", source: .signedData)
        renewal.willAutoRenew = true
        evidence.insert(renewal)
        return evidence
    }

    /// A renewal of a customer with `months` periods as a write sees it: its row keeps the first period and the
    /// latest two, the rest folded into runs.
    static func renewal(months: Int) -> (old: [SubscriptionTimeline], new: [SubscriptionTimeline]) {
        func row(_ evidence: EvidenceSet, keeping count: Int) -> (EvidenceSet, EvidenceSet) {
            var row = EvidenceSet()
            var history = EvidenceSet()
            let ordered = evidence.transactions.sorted {
                ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast)
            }
            for (index, transaction) in ordered.enumerated() {
                if index == 0 || index >= count - 2 { row.insert(transaction) } else { history.insert(transaction) }
            }
            for renewal in evidence.renewals { row.insert(renewal) }
            return (row, history)
        }
        var whole = evidence(months: months)
        let (oldRow, history) = row(whole, keeping: months)
        let runs = FoldedPeriods(history: history, row: oldRow)
        var newRow = oldRow
        let latest = whole.transactions.max { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
        if var next = latest, let expires = next.expiresAt {
            next.transactionID = "t\(months)"
            next.purchaseDate = expires
            next.expiresAt = expires.addingTimeInterval(30 * 86_400)
            newRow.insert(next)
            whole.insert(next)
        }
        let old = runs.applied(to: SubscriptionTimeline.timelines(oldRow)) ?? []
        let new = runs.applied(to: SubscriptionTimeline.timelines(newRow)) ?? []
        return (old, new)
    }

    /// A month-old customer's first renewal: its evidence before (one period, set to renew) and after (two).
    static func firstRenewalEvidence() -> (before: EvidenceSet, after: EvidenceSet) {
        let after = evidence(months: 2)
        var before = EvidenceSet()
        for transaction in after.transactions where transaction.transactionID != "t1" { before.insert(transaction) }
        for renewal in after.renewals { before.insert(renewal) }
        return (before, after)
    }

    /// ``firstRenewalEvidence()`` as timelines.
    static func firstRenewal() -> (old: [SubscriptionTimeline], new: [SubscriptionTimeline]) {
        let (before, after) = firstRenewalEvidence()
        return (SubscriptionTimeline.timelines(before), SubscriptionTimeline.timelines(after))
    }

    static func measure(with runner: BenchRunner) -> [BenchResult] {
        let rules = ProceedsRules(taxRates: ["DEU": 0.19])
        let young = customer(months: 1)
        let old = customer(months: 36)
        let renewal = renewal(months: 36)
        let first = firstRenewal()
        let firstEvidence = firstRenewalEvidence()
        return [
            runner.measure("rollup.contribution.1m") { _ = MetricRollup.contribution(young, proceeds: rules) },
            runner.measure("rollup.contribution.36m") { _ = MetricRollup.contribution(old, proceeds: rules) },
            runner.measure("rollup.renewal.36m") {
                let start = MetricRollup.firstChange(from: renewal.old, to: renewal.new)
                _ = MetricRollup.change(from: renewal.old, to: renewal.new, proceeds: rules, start: start)
            },
            runner.measure("rollup.renewal.1m") {
                let start = MetricRollup.firstChange(from: first.old, to: first.new)
                _ = MetricRollup.change(from: first.old, to: first.new, proceeds: rules, start: start)
            },
            runner.measure("rollup.write.1m") {
                let old = SubscriptionTimeline.timelines(firstEvidence.before)
                let new = SubscriptionTimeline.timelines(firstEvidence.after)
                let start = MetricRollup.firstChange(from: old, to: new)
                _ = MetricRollup.change(from: old, to: new, proceeds: rules, start: start)
            },
        ]
    }
}
