public import Foundation

/// Folding superseded history away (rule ``SubscriptionRule/supersededHistoryFolds``): the one place that decides
/// which observations a subscriber's answers no longer depend on, so a store can keep a working set whose size does
/// not grow with the number of renewals and append the rest to history.
extension SubscriptionEngine {
    /// How many of a subscription's latest known periods are always kept: the latest decides its state, and the one
    /// before stands in if the latest is later found upgraded away.
    static let keptLatestPeriods = 2

    /// Splits `evidence` into what answers at `now` and later depend on, and what they do not.
    ///
    /// For every instant `t ≥ now`, `evaluate(kept, at: t)` equals `evaluate(evidence, at: t)` and
    /// `nextChange(kept, after: t)` equals `nextChange(evidence, after: t)`. A transaction is folded only when all of
    /// these hold: it is an auto-renewable period that ended by `now`, observed by `now`; it is not among its
    /// subscription's two latest known periods, nor its first, nor the latest of its product, nor upgraded away,
    /// refunded, introductory, or a switch from another subscription; and the kept latest periods name the
    /// subscription group whenever it does. Renewal info is folded when newer renewal info of the same
    /// subscription was observed by `now` and none of its dates is after `now`. Purchases that are not
    /// auto-renewable and consent rescissions are always kept. Every observation of a transaction id is kept or
    /// folded together.
    /// - Parameters:
    ///   - evidence: Everything known about one subscriber.
    ///   - now: The instant from which answers must not change (the server's clock at the write).
    /// - Returns: The split; `folded` is empty when nothing is superseded.
    public func fold(_ evidence: EvidenceSet, at now: Date) -> FoldedEvidence {
        let byID = Dictionary(grouping: evidence.transactions, by: \.transactionID)
        var foldedIDs = Set<String>()
        var periods: [String: [(id: String, merged: Transaction, observations: [Transaction])]] = [:]
        for (id, observations) in byID {
            let merged = Transaction.merged(observations)
            guard kind(of: merged) == .autoRenewable,
                Set(observations.map(\.originalTransactionID)).count == 1
            else { continue }
            periods[merged.originalTransactionID, default: []].append((id, merged, observations))
        }
        for (_, subscription) in periods {
            foldedIDs.formUnion(Self.foldable(subscription, at: now))
        }
        var kept = EvidenceSet()
        var folded = EvidenceSet()
        for transaction in evidence.transactions {
            if foldedIDs.contains(transaction.transactionID) {
                folded.insert(transaction)
            } else {
                kept.insert(transaction)
            }
        }
        for (_, observations) in Dictionary(grouping: evidence.renewals, by: \.originalTransactionID) {
            let known = observations.filter { ($0.observedAt ?? .distantPast) <= now }
            guard let newest = known.max(by: ObservationOrder.precedes) else {
                observations.forEach { kept.insert($0) }
                continue
            }
            for renewal in observations {
                let dates = [renewal.observedAt, renewal.gracePeriodExpiresAt, renewal.renewalDate].compactMap { $0 }
                if renewal != newest, ObservationOrder.precedes(renewal, newest), dates.allSatisfy({ $0 <= now }) {
                    folded.insert(renewal)
                } else {
                    kept.insert(renewal)
                }
            }
        }
        for rescission in evidence.consentRescissions ?? [] { kept.insert(rescission) }
        kept.formCustomerUnion(evidence)
        return FoldedEvidence(kept: kept, folded: folded)
    }

    /// The transaction ids of one subscription's periods that no answer from `now` on depends on.
    static func foldable(
        _ subscription: [(id: String, merged: Transaction, observations: [Transaction])], at now: Date
    ) -> Set<String> {
        func latestKey(_ transaction: Transaction) -> (Date, Date, String) {
            (
                transaction.expiresAt ?? transaction.purchaseDate ?? .distantPast,
                transaction.purchaseDate ?? .distantPast, transaction.transactionID
            )
        }
        func known(_ period: (id: String, merged: Transaction, observations: [Transaction])) -> Bool {
            period.observations.allSatisfy { ($0.observedAt ?? .distantFuture) <= now }
                && (period.merged.purchaseDate ?? .distantFuture) <= now
        }
        // The latest known periods, as the evaluator chooses its latest (upgraded-away periods do not count).
        let latest = subscription.filter { known($0) && $0.merged.isUpgraded != true }
            .sorted { latestKey($0.merged) > latestKey($1.merged) }
            .prefix(keptLatestPeriods)
        guard latest.count == keptLatestPeriods else { return [] }
        let protected = Set(latest.map(\.id))
        let groupNamed = latest.allSatisfy { $0.merged.subscriptionGroupID != nil }
        let firstBought = subscription.min {
            ($0.merged.purchaseDate ?? .distantPast, $0.id) < ($1.merged.purchaseDate ?? .distantPast, $1.id)
        }?.id
        let firstBegun = subscription.min {
            ($0.merged.originalPurchaseDate ?? $0.merged.purchaseDate ?? .distantPast, $0.id)
                < ($1.merged.originalPurchaseDate ?? $1.merged.purchaseDate ?? .distantPast, $1.id)
        }?.id
        var productsKept = Set(latest.map(\.merged.productID))
        var foldable = Set<String>()
        // Newest first, so the latest period of each product is the one kept.
        for period in subscription.sorted(by: { latestKey($0.merged) > latestKey($1.merged) }) {
            let transaction = period.merged
            let dates = [transaction.purchaseDate, transaction.originalPurchaseDate, transaction.expiresAt]
            let superseded =
                !protected.contains(period.id) && period.id != firstBought && period.id != firstBegun
                && known(period) && transaction.expiresAt != nil
                && dates.allSatisfy { ($0 ?? .distantPast) <= now }
                && period.observations.allSatisfy { $0.revokedAt == nil && $0.isUpgraded != true }
                && transaction.offer?.isIntroductory != true && transaction.previousOriginalTransactionID == nil
                && (groupNamed || transaction.subscriptionGroupID == nil)
                && productsKept.contains(transaction.productID)
            if superseded {
                foldable.insert(period.id)
            } else {
                productsKept.insert(transaction.productID)
            }
        }
        return foldable
    }
}
