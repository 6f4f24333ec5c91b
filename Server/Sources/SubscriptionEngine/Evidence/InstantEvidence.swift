import Foundation

/// The evidence that describes one instant, seen from one point of knowledge — the engine's two notions of
/// history, decided here once:
///
/// - **As known then** (`knownAt` ≤ the instant; the server's answer, `state --known-at`): only observations made
///   by `knownAt` count (rule ``SubscriptionRule/evidenceAfterInstantIgnored``) — what StoreKeeper could have
///   answered then, for an audit.
/// - **As it happened** (`knownAt` `nil` or later than the instant; `state --at`): every observation counts, read
///   for what it says about the instant (rule ``SubscriptionRule/laterEvidenceDatesThePast``): a purchase bought
///   by then, a refund or upgrade dated by then, and the newest renewal info that still describes the period
///   current then (observed before the next period began).
///
/// Either way a transaction bought after the instant is left out, and a revocation or upgrade dated after it has not
/// happened yet.
struct InstantEvidence {
    /// The transactions bought by the instant, merged per transaction id, as they stood at the instant.
    let transactions: [Transaction]
    /// The renewal info that describes each subscription (by original transaction id) at the instant.
    let renewals: [String: RenewalState]

    /// Selects the evidence.
    /// - Parameters:
    ///   - evidence: Everything stored.
    ///   - instant: The instant described.
    ///   - knownAt: Only observations made by then count; `nil` for every observation.
    init(_ evidence: EvidenceSet, at instant: Date, knownAt: Date?) {
        let horizon = knownAt ?? .distantFuture
        let known = evidence.transactions.filter { ($0.observedAt ?? .distantPast) <= horizon }
        let merged = Dictionary(grouping: known, by: \.transactionID).values.map {
            Self.asOf(instant, Transaction.merged(Array($0)))
        }
        transactions = merged.filter { ($0.purchaseDate ?? .distantPast) <= instant }
        let observed = evidence.renewals.filter { ($0.observedAt ?? .distantPast) <= horizon }
        guard horizon > instant else {
            renewals = Dictionary(grouping: observed, by: \.originalTransactionID).mapValues(RenewalState.newest)
            return
        }
        // Renewal info observed after the instant still describes it until the subscription's next period began.
        var nextPeriod: [String: Date] = [:]
        for transaction in merged {
            guard let bought = transaction.purchaseDate, bought > instant else { continue }
            let original = transaction.originalTransactionID
            nextPeriod[original] = min(nextPeriod[original] ?? .distantFuture, bought)
        }
        let describing = observed.filter {
            ($0.observedAt ?? .distantPast) < (nextPeriod[$0.originalTransactionID] ?? .distantFuture)
        }
        renewals = Dictionary(grouping: describing, by: \.originalTransactionID).mapValues(RenewalState.newest)
    }

    /// A merged transaction as it stood at `instant`: a revocation (refund or upgrade) dated later had not happened.
    static func asOf(_ instant: Date, _ transaction: Transaction) -> Transaction {
        guard let revoked = transaction.revokedAt, revoked > instant else { return transaction }
        var before = transaction
        before.revokedAt = nil
        before.revocationReason = nil
        before.revocationType = nil
        before.revocationPercentage = nil
        if before.isUpgraded == true { before.isUpgraded = false }
        return before
    }
}
