import Foundation
import StoreKeeperBench
import SubscriptionEngine
import SubscriptionMetrics

/// What a write adds for metric rollups (``MetricRollup/contribution(_:proceeds:)``): one customer's contribution
/// computed from its timelines, for a customer a month old and one with three years of monthly renewals.
enum BenchRollups {
    /// A monthly subscription of `months` periods, the last ending in the future (set to renew).
    static func customer(months: Int) -> [SubscriptionTimeline] {
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
        return SubscriptionTimeline.timelines(evidence)
    }

    static func measure(with runner: BenchRunner) -> [BenchResult] {
        let rules = ProceedsRules(taxRates: ["DEU": 0.19])
        let young = customer(months: 1)
        let old = customer(months: 36)
        return [
            runner.measure("rollup.contribution.1m") { _ = MetricRollup.contribution(young, proceeds: rules) },
            runner.measure("rollup.contribution.36m") { _ = MetricRollup.contribution(old, proceeds: rules) },
        ]
    }
}
