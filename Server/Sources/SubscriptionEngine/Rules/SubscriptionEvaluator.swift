import AppStoreModels
import Foundation

/// Decides one auto-renewable subscription's state at an instant from its merged transactions and renewal info.
enum SubscriptionEvaluator {
    static func evaluate(
        originalTransactionID: String, transactions: [Transaction], renewal: RenewalState?, at now: Date
    ) -> SubscriptionState {
        typealias F = ExplanationFormat
        var explanation: [String] = []
        let ordered = transactions.sorted {
            ($0.purchaseDate ?? .distantPast, $0.transactionID) < ($1.purchaseDate ?? .distantPast, $1.transactionID)
        }
        if let first = ordered.first {
            explanation.append(
                "subscription \(originalTransactionID) began \(F.date(first.originalPurchaseDate ?? first.purchaseDate)) "
                    + "with \(first.productID)")
        }
        // Upgrades end a period early.
        for upgraded in ordered where upgraded.isUpgraded == true {
            explanation.append(
                F.tagged(
                    .upgradeEndsPeriod,
                    "transaction \(upgraded.transactionID) (\(upgraded.productID)) was upgraded away from; it ended "
                        + "\(F.date(upgraded.revokedAt ?? upgraded.purchaseDate))"))
        }
        let current = ordered.filter { $0.isUpgraded != true }
        let candidates = current.isEmpty ? ordered : current
        let latest = candidates.max {
            ($0.expiresAt ?? $0.purchaseDate ?? .distantPast, $0.purchaseDate ?? .distantPast, $0.transactionID)
                < ($1.expiresAt ?? $1.purchaseDate ?? .distantPast, $1.purchaseDate ?? .distantPast, $1.transactionID)
        }!
        // (No count of the periods: a store keeps only the periods that still matter, rule supersededHistoryFolds.)
        if ordered.count > 1 {
            explanation.append(
                F.tagged(.latestExpiryDecides, "the latest of its periods is transaction \(latest.transactionID)"))
        }
        explanation.append(
            "\(latest.purchaseDate == latest.originalPurchaseDate ? "purchased" : "renewed") "
                + "\(F.date(latest.purchaseDate)) until \(F.date(latest.expiresAt)) by transaction "
                + "\(latest.transactionID) (\(latest.productID)\(F.offer(latest.offer)))")
        if latest.ownership == .familyShared {
            explanation.append(F.tagged(.familySharedUntilRevoked, "shared by a family member"))
        }
        for older in ordered where older.transactionID != latest.transactionID && older.isUpgraded != true {
            if let revoked = older.revokedAt, revoked <= now {
                explanation.append(
                    F.tagged(
                        .onlyCurrentPeriodRevocationRevokes,
                        "transaction \(older.transactionID) was refunded \(F.date(revoked)) (reason: "
                            + "\(F.reason(older.revocationReason))); it is an earlier period, the current one stands"))
            }
        }

        let usableRenewal: RenewalState?
        if let renewal, let observed = renewal.observedAt, let began = latest.purchaseDate, observed < began {
            explanation.append(
                F.tagged(
                    .staleRenewalInfoIgnored,
                    "renewal info from \(F.date(observed)) predates the current period; its billing state is not used"))
            usableRenewal = nil
        } else {
            usableRenewal = renewal
        }

        var state = SubscriptionState(
            originalTransactionID: originalTransactionID, productID: latest.productID,
            subscriptionGroupID: latest.subscriptionGroupID ?? ordered.compactMap(\.subscriptionGroupID).last,
            status: .expired, expiresAt: latest.accessEndsAt, gracePeriodExpiresAt: nil,
            willAutoRenew: renewal?.willAutoRenew, autoRenewProductID: renewal?.autoRenewProductID,
            expirationReason: nil, offer: latest.offer, ownership: latest.ownership,
            priceIncreaseStatus: renewal?.priceIncreaseStatus, environment: latest.environment ?? renewal?.environment,
            storefront: latest.storefront, price: latest.price, currency: latest.currency,
            isUpgraded: latest.isUpgraded == true, revokedAt: nil, revocationReason: nil, revocationType: nil,
            latestTransactionID: latest.transactionID, explanation: [], purchasedAt: latest.purchaseDate)

        if let revoked = latest.revokedAt, revoked <= now, latest.isUpgraded != true {
            state.status = .revoked
            state.revokedAt = revoked
            state.revocationReason = latest.revocationReason
            state.revocationType = latest.revocationType
            state.revocationPercentage = latest.revocationPercentage
            let what =
                switch latest.revocationType {
                case .familyRevoke: "family sharing revoked"
                case .refundProrated:
                    "refunded (prorated\(latest.revocationPercentage.map { ", \(F.percentage($0))" } ?? ""))"
                default: "refunded"
                }
            explanation.append(
                F.tagged(
                    .revocationOverridesExpiry,
                    "\(what) \(F.date(revoked)), reason: \(F.reason(latest.revocationReason)); no access from then on"))
        } else if let ends = latest.accessEndsAt, ends > now {
            state.status = .active
            explanation.append("active: the current period runs until \(F.date(ends))")
        } else if let grace = usableRenewal?.gracePeriodExpiresAt, grace > now, usableRenewal?.isInBillingRetry != false
        {
            state.status = .inGracePeriod
            state.gracePeriodExpiresAt = grace
            explanation.append(
                F.tagged(
                    .gracePeriodKeepsAccess,
                    "renewal failed at \(F.date(latest.expiresAt)); billing grace period keeps access until \(F.date(grace))"
                ))
        } else if usableRenewal?.isInBillingRetry == true {
            state.status = .inBillingRetry
            explanation.append(
                F.tagged(
                    .billingRetryWithoutAccess,
                    "renewal failed at \(F.date(latest.expiresAt)); Apple is retrying billing; no access until it recovers"
                ))
        } else {
            state.status = .expired
            if let intent = usableRenewal?.expirationIntent {
                state.expirationReason = ExpirationReason(intent)
            } else if usableRenewal?.willAutoRenew == false || usableRenewal?.commitmentWillAutoRenew == false {
                state.expirationReason = .voluntary
            }
            explanation.append(
                "expired \(F.date(latest.accessEndsAt))"
                    + (state.expirationReason.map { " (reason: \($0.rawValue))" } ?? ""))
        }
        if state.status.grantsAccess, let next = state.autoRenewProductID, next != state.productID {
            explanation.append(F.tagged(.downgradeAtRenewal, "renews to \(next) at the next renewal"))
        }
        if state.status.grantsAccess, state.willAutoRenew == false {
            explanation.append("auto-renew is off: it will not renew")
        }
        if let previous = ordered.lazy.compactMap(\.previousOriginalTransactionID).first {
            state.previousOriginalTransactionID = previous
            explanation.append(
                F.tagged(
                    .switchReplacesPrevious,
                    "replaces subscription \(previous) (a switch between a standalone subscription and a subscription bundle)"
                ))
        }
        state.billingPlan = latest.billingPlan
        if latest.billingPlan == .monthly || latest.commitmentPeriod != nil {
            state.commitment = commitment(of: latest, renewal: usableRenewal, explanation: &explanation)
        }
        state.explanation = explanation
        return state
    }

    /// A commitment plan's standing from its latest period and renewal info, explained (rule
    /// ``SubscriptionRule/commitmentBillsToItsEnd``).
    static func commitment(of latest: Transaction, renewal: RenewalState?, explanation: inout [String])
        -> CommitmentState
    {
        typealias F = ExplanationFormat
        var commitment = CommitmentState()
        commitment.billingPeriod = latest.commitmentPeriod
        commitment.totalBillingPeriods = latest.commitmentPeriods
        commitment.endsAt = latest.commitmentEndsAt
        commitment.price = latest.commitmentPrice
        commitment.willRenew = renewal?.commitmentWillAutoRenew
        commitment.renewsToProductID = renewal?.commitmentAutoRenewProductID
        let period =
            latest.commitmentPeriod.map { number in
                "period \(number)" + (latest.commitmentPeriods.map { " of \($0)" } ?? "")
            } ?? "a period"
        let next: String =
            switch commitment.willRenew {
            case false?:
                "; the customer cancelled the next commitment: billing continues to its end, then it stops"
            case true?: "; a new commitment starts then"
            case nil: ""
            }
        explanation.append(
            F.tagged(
                .commitmentBillsToItsEnd,
                "billed monthly within a commitment: \(period), the commitment ends \(F.date(latest.commitmentEndsAt))"
                    + next))
        return commitment
    }

    /// Marks each subscription that a later one names as its previous subscription as replaced by it (rule
    /// ``SubscriptionRule/switchReplacesPrevious``).
    static func markReplaced(_ subscriptions: inout [SubscriptionState]) {
        let replacements = subscriptions.compactMap { state in
            state.previousOriginalTransactionID.map { ($0, state.originalTransactionID) }
        }
        guard !replacements.isEmpty else { return }
        let replacedBy = Dictionary(replacements, uniquingKeysWith: { first, _ in first })
        for index in subscriptions.indices {
            guard let successor = replacedBy[subscriptions[index].originalTransactionID] else { continue }
            subscriptions[index].replacedByOriginalTransactionID = successor
            subscriptions[index].explanation.append(
                ExplanationFormat.tagged(
                    .switchReplacesPrevious,
                    "replaced by subscription \(successor) (a switch between a standalone subscription and a "
                        + "subscription bundle)"))
        }
    }
}
