import SubscriptionEngine

extension EvidenceSet {
    /// Removes and returns the observations of these subscriptions (original transaction ids), in one pass.
    mutating func removeSubscriptions(_ originalTransactionIDs: Set<String>) -> EvidenceSet {
        var removed = EvidenceSet()
        var kept = EvidenceSet()
        for transaction in transactions {
            if originalTransactionIDs.contains(transaction.originalTransactionID) {
                removed.insert(transaction)
            } else {
                kept.insert(transaction)
            }
        }
        for renewal in renewals {
            if originalTransactionIDs.contains(renewal.originalTransactionID) {
                removed.insert(renewal)
            } else {
                kept.insert(renewal)
            }
        }
        for rescission in consentRescissions ?? [] {
            if originalTransactionIDs.contains(rescission.originalTransactionID) {
                removed.insert(rescission)
            } else {
                kept.insert(rescission)
            }
        }
        kept.formCustomerUnion(self)
        self = kept
        return removed
    }
}
