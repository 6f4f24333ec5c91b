public import Foundation
public import SubscriptionEngine

/// A subscription's periods as they happened, from all its evidence, and why it ended: what every metric is
/// computed from, so each metric reads the same history.
public struct SubscriptionTimeline: Sendable, Hashable {
    /// The subscription.
    public var originalTransactionID: String
    /// Its periods, in order.
    public var periods: [SubscriptionPeriod]
    /// Why its access ended last (`voluntary`, `involuntary` or `other`), from its newest renewal info.
    public var endReason: String
    /// Its subscription group, when the evidence says.
    public var group: String?
    /// Every billing grace end any of its renewal info announced (which renewals recovered within grace).
    public var graceEnds: [Date]

    /// The timelines of every auto-renewable subscription in a customer's evidence.
    /// - Parameter evidence: The customer's evidence.
    /// - Returns: One timeline per subscription with at least one dated period.
    public static func timelines(_ evidence: EvidenceSet) -> [SubscriptionTimeline] {
        let merged = evidence.mergedTransactions
        let observations = Dictionary(grouping: evidence.renewals, by: \.originalTransactionID)
        let bySubscription = Dictionary(
            grouping: merged.filter { ($0.kind == nil || $0.kind == .autoRenewable) && $0.expiresAt != nil },
            by: \.originalTransactionID)
        return bySubscription.compactMap { original, transactions in
            timeline(original, transactions, renewals: observations[original] ?? [])
        }.sorted { $0.originalTransactionID < $1.originalTransactionID }
    }

    static func timeline(_ original: String, _ transactions: [Transaction], renewals: [RenewalState])
        -> SubscriptionTimeline?
    {
        let renewal = renewals.isEmpty ? nil : RenewalState.newest(renewals)
        let ordered = transactions.sorted {
            ($0.purchaseDate ?? .distantPast, $0.transactionID) < ($1.purchaseDate ?? .distantPast, $1.transactionID)
        }
        var periods: [SubscriptionPeriod] = []
        for transaction in ordered {
            guard let start = transaction.purchaseDate, let expires = transaction.expiresAt, expires > start else {
                continue
            }
            let refund =
                transaction.isUpgraded == true || transaction.revocationType == .familyRevoke
                ? nil : transaction.revokedAt
            let kind = transaction.offer?.kind
            periods.append(
                SubscriptionPeriod(
                    productID: transaction.productID, start: start,
                    accessEnd: transaction.accessEndsAt.map { max(start, $0) } ?? expires, expiresAt: expires,
                    refundedAt: refund,
                    refundedShare: transaction.revocationPercentage ?? 100_000, price: transaction.price ?? 0,
                    currency: transaction.currency ?? "unknown", storefront: transaction.storefront,
                    environment: transaction.environment?.rawValue ?? "Production",
                    offerType: Self.offerType(kind), isTrial: kind == .freeTrial,
                    months: Self.months(
                        expires.timeIntervalSince(start), sandbox: transaction.environment == .sandbox)))
        }
        guard !periods.isEmpty else { return nil }
        // A grace period keeps access after the last period's expiry while billing is retried.
        if let grace = renewal?.gracePeriodExpiresAt, renewal?.isInBillingRetry != false,
            grace > periods[periods.count - 1].accessEnd, periods[periods.count - 1].refundedAt == nil
        {
            periods[periods.count - 1].accessEnd = grace
        }
        let reason: String
        if renewal?.expirationIntent == .billingError || renewal?.isInBillingRetry == true {
            reason = "involuntary"
        } else if renewal?.willAutoRenew == false || renewal?.expirationIntent == .customerCancelled {
            reason = "voluntary"
        } else {
            reason = "other"
        }
        return SubscriptionTimeline(
            originalTransactionID: original, periods: periods, endReason: reason,
            group: ordered.last?.subscriptionGroupID, graceEnds: renewals.compactMap(\.gracePeriodExpiresAt).sorted())
    }

    /// A period's nominal length in months: Apple's standard periods by their day counts, else days / 30.4375. In
    /// the sandbox, periods are minutes long: Apple's default renewal rate (a week 3 minutes, a month 5, two months
    /// 10, three 15, six 30, a year 60) names them.
    static func months(_ seconds: TimeInterval, sandbox: Bool = false) -> Double {
        if sandbox, seconds < 2 * 3_600 {
            let minutes = (seconds / 60).rounded()
            let table: [Double: Double] = [3: 12.0 / 52.0, 5: 1, 10: 2, 15: 3, 30: 6, 60: 12]
            return table[minutes] ?? max(minutes / 5, 1.0 / 30.4375)
        }
        let days = seconds / 86_400
        switch days {
        case 6.5...7.5: return 12.0 / 52.0
        case 27.5...31.5: return 1
        case 58...62.5: return 2
        case 88...92.5: return 3
        case 180...184.5: return 6
        case 363...366.5: return 12
        default: return max(days / 30.4375, 1.0 / 30.4375)
        }
    }

    static func offerType(_ kind: Offer.Kind?) -> String {
        switch kind {
        case nil: "none"
        case .freeTrial: "free_trial"
        case .introPayAsYouGo, .introPayUpFront, .introductory: "introductory"
        case .promotional: "promotional"
        case .offerCode: "offer_code"
        case .winBack: "win_back"
        }
    }
}
