public import Foundation

/// Turns verified evidence into "entitled until when, and why": subscription states, purchases,
/// entitlements and intro-offer eligibility.
///
/// Pure: no I/O and no clock. `now` is a parameter — the server's clock, never the device's. The answer
/// depends only on the set of evidence, not on the order it arrived in (see ``EvidenceSet``).
///
/// ```swift
/// let engine = SubscriptionEngine(configuration: configuration)
/// let state = engine.evaluate(evidence, at: now)
/// state.entitlements.first { $0.identifier == "pro" }?.expiresAt
/// ```
public struct SubscriptionEngine: Sendable {
    /// Entitlements, groups and product kinds the evidence does not say.
    public var configuration: EngineConfiguration

    /// Makes an engine.
    /// - Parameter configuration: Product configuration.
    public init(configuration: EngineConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Evaluates a customer's evidence at an instant, as known then: the server's answer at its clock.
    /// - Parameters:
    ///   - evidence: Everything known about the customer.
    ///   - now: The instant (the server's clock).
    /// - Returns: The customer's state.
    public func evaluate(_ evidence: EvidenceSet, at now: Date) -> CustomerState {
        evaluate(evidence, at: now, knownAt: now)
    }

    /// Evaluates a customer's evidence at an instant, from what was known by `knownAt` (see ``InstantEvidence``):
    /// `nil` reconstructs the instant from all the evidence (history as it happened, e.g. a response made on the
    /// 30th proves a purchase active on the 10th); the instant itself gives what StoreKeeper knew then (an audit).
    /// - Parameters:
    ///   - evidence: Everything known about the customer.
    ///   - now: The instant described.
    ///   - knownAt: Only observations made by then count; `nil` for all of them.
    /// - Returns: The customer's state at `now`.
    public func evaluate(_ evidence: EvidenceSet, at now: Date, knownAt: Date?) -> CustomerState {
        let instant = InstantEvidence(evidence, at: now, knownAt: knownAt)
        let merged = instant.transactions
        let renewals = instant.renewals

        var subscriptions: [SubscriptionState] = []
        var purchases: [PurchaseState] = []
        var subscriptionTransactions: [String: [Transaction]] = [:]
        for transaction in merged {
            switch kind(of: transaction) {
            case .autoRenewable:
                subscriptionTransactions[transaction.originalTransactionID, default: []].append(transaction)
            case let other: purchases.append(purchaseState(transaction, kind: other, at: now))
            }
        }
        for (original, transactions) in subscriptionTransactions {
            subscriptions.append(
                SubscriptionEvaluator.evaluate(
                    originalTransactionID: original, transactions: transactions, renewal: renewals[original], at: now))
        }
        subscriptions.sort { $0.originalTransactionID < $1.originalTransactionID }
        SubscriptionEvaluator.markReplaced(&subscriptions)
        if let rescissions = evidence.consentRescissions {
            let began = subscriptionTransactions.mapValues { transactions in
                transactions.compactMap { $0.originalPurchaseDate ?? $0.purchaseDate }.min() ?? .distantPast
            }
            ConsentRescissionRule.apply(
                rescissions, began: began, to: &subscriptions, purchases: &purchases, at: now)
        }
        purchases.sort { $0.transactionID < $1.transactionID }
        let grants = grantStates(evidence, at: now, knownAt: knownAt)
        return CustomerState(
            evaluatedAt: now, subscriptions: subscriptions, purchases: purchases,
            entitlements: entitlements(subscriptions: subscriptions, purchases: purchases, grants: grants),
            grants: grants, introEligibility: introEligibility(merged))
    }

    /// The first instant after `now` at which ``evaluate(_:at:)`` may answer differently: every comparison
    /// the engine makes with the clock is against a date in the evidence (or a purchase date plus a configured
    /// non-renewing duration), so the answer is the same for every instant in `[now, nextChange)`.
    ///
    /// The server uses it to keep an evaluated state until it can change.
    /// - Parameters:
    ///   - evidence: Everything known about the customer.
    ///   - now: The instant of the last evaluation.
    /// - Returns: The next instant that may change the answer; `nil` when none ever can.
    public func nextChange(_ evidence: EvidenceSet, after now: Date) -> Date? {
        var next: Date?
        func consider(_ date: Date?) {
            guard let date, date > now else { return }
            if next.map({ date < $0 }) ?? true { next = date }
        }
        for transaction in evidence.transactions {
            for date in [
                transaction.observedAt, transaction.purchaseDate, transaction.originalPurchaseDate,
                transaction.expiresAt, transaction.revokedAt,
            ] { consider(date) }
            if let seconds = configuration.nonRenewingDurations[transaction.productID] {
                consider(transaction.purchaseDate?.addingTimeInterval(seconds))
            }
        }
        for renewal in evidence.renewals {
            for date in [renewal.observedAt, renewal.gracePeriodExpiresAt, renewal.renewalDate] { consider(date) }
        }
        for rescission in evidence.consentRescissions ?? [] { consider(rescission.rescindedAt) }
        for grant in evidence.grants ?? [] { [grant.grantedAt, grant.expiresAt].forEach(consider) }
        for revocation in evidence.grantRevocations ?? [] { consider(revocation.revokedAt) }
        return next
    }

    /// What a transaction is: the evidence's word, else configuration, else an expiry means auto-renewable.
    func kind(of transaction: Transaction) -> ProductKind {
        if let kind = transaction.kind { return kind }
        if configuration.consumables.contains(transaction.productID) { return .consumable }
        if configuration.nonRenewingDurations[transaction.productID] != nil { return .nonRenewing }
        return transaction.expiresAt == nil ? .nonConsumable : .autoRenewable
    }

    func purchaseState(_ transaction: Transaction, kind: ProductKind, at now: Date) -> PurchaseState {
        typealias F = ExplanationFormat
        var explanation = [
            "bought \(transaction.productID) \(F.date(transaction.purchaseDate)) (transaction \(transaction.transactionID))"
        ]
        var expiresAt: Date?
        var grants: Bool
        switch kind {
        case .consumable:
            grants = false
            explanation.append(F.tagged(.consumableNotEntitlement, "a consumable: recorded, not an entitlement"))
        case .nonConsumable, .autoRenewable:
            grants = true
            explanation.append(F.tagged(.nonConsumableForever, "a non-consumable: access for good unless revoked"))
        case .nonRenewing:
            if let seconds = configuration.nonRenewingDurations[transaction.productID],
                let bought = transaction.purchaseDate
            {
                expiresAt = bought.addingTimeInterval(seconds)
                grants = expiresAt! > now
                explanation.append(
                    F.tagged(.nonRenewingConfiguredDuration, "a non-renewing subscription until \(F.date(expiresAt))"))
            } else {
                grants = false
                explanation.append(
                    F.tagged(.nonRenewingConfiguredDuration, "a non-renewing subscription with no configured duration"))
            }
        }
        if let revoked = transaction.revokedAt, revoked <= now {
            grants = false
            expiresAt = min(expiresAt ?? revoked, revoked)
            explanation.append(
                F.tagged(
                    .revocationOverridesExpiry,
                    "refunded \(F.date(revoked)), reason: \(F.reason(transaction.revocationReason))"))
        }
        return PurchaseState(
            transactionID: transaction.transactionID, productID: transaction.productID, kind: kind,
            purchaseDate: transaction.purchaseDate, expiresAt: expiresAt,
            revokedAt: transaction.revokedAt.flatMap { $0 <= now ? $0 : nil }, grantsAccess: grants,
            explanation: explanation)
    }

    /// The grants given by `now` (and known by `knownAt`), each in force or not, with why (rule
    /// ``SubscriptionRule/supportGrant``).
    func grantStates(_ evidence: EvidenceSet, at now: Date, knownAt: Date?) -> [GrantState] {
        typealias F = ExplanationFormat
        func seen(_ date: Date) -> Bool { date <= now && knownAt.map { date <= $0 } ?? true }
        let revoked = Dictionary(
            (evidence.grantRevocations ?? []).filter { seen($0.revokedAt) }.map { ($0.grantID, $0.revokedAt) },
            uniquingKeysWith: min)
        return (evidence.grants ?? []).filter { seen($0.grantedAt) }.map { grant in
            let revokedAt = revoked[grant.id]
            let ended = grant.expiresAt.map { $0 <= now } ?? false
            let until = grant.expiresAt.map { "until \(F.date($0))" } ?? "for good"
            var explanation = [
                F.tagged(
                    .supportGrant,
                    "\(grant.entitlement) granted by support \(F.date(grant.grantedAt)) \(until): "
                        + (grant.reason ?? "no reason given") + " (grant \(grant.id))")
            ]
            if let revokedAt {
                explanation.append(F.tagged(.supportGrant, "revoked by support \(F.date(revokedAt))"))
            } else if ended {
                explanation.append(F.tagged(.supportGrant, "ended \(F.date(grant.expiresAt))"))
            }
            return GrantState(
                id: grant.id, entitlement: grant.entitlement, grantedAt: grant.grantedAt, expiresAt: grant.expiresAt,
                revokedAt: revokedAt, reason: grant.reason, isActive: revokedAt == nil && !ended,
                explanation: explanation)
        }.sorted { ($0.grantedAt, $0.id) < ($1.grantedAt, $1.id) }
    }

    func entitlements(subscriptions: [SubscriptionState], purchases: [PurchaseState], grants: [GrantState])
        -> [Entitlement]
    {
        var best: [String: Entitlement] = [:]
        func offer(_ candidate: Entitlement) {
            guard let current = best[candidate.identifier] else {
                best[candidate.identifier] = candidate
                return
            }
            let currentEnd = current.expiresAt ?? .distantFuture
            let candidateEnd = candidate.expiresAt ?? .distantFuture
            if (candidateEnd, current.productID) > (currentEnd, candidate.productID) {
                best[candidate.identifier] = candidate
            }
        }
        for subscription in subscriptions
        where subscription.status.grantsAccess && subscription.consentRescindedAt == nil {
            let end = subscription.status == .inGracePeriod ? subscription.gracePeriodExpiresAt : subscription.expiresAt
            for identifier in configuration.entitlements[subscription.productID] ?? [] {
                offer(
                    Entitlement(
                        identifier: identifier, productID: subscription.productID, expiresAt: end,
                        grantedBy: subscription.originalTransactionID))
            }
        }
        for purchase in purchases where purchase.grantsAccess {
            for identifier in configuration.entitlements[purchase.productID] ?? [] {
                offer(
                    Entitlement(
                        identifier: identifier, productID: purchase.productID, expiresAt: purchase.expiresAt,
                        grantedBy: purchase.transactionID))
            }
        }
        for grant in grants where grant.isActive {
            offer(
                Entitlement(
                    identifier: grant.entitlement, productID: GrantState.productID, expiresAt: grant.expiresAt,
                    grantedBy: grant.id))
        }
        return best.values.sorted { $0.identifier < $1.identifier }
    }

    func introEligibility(_ transactions: [Transaction]) -> [String: IntroEligibility] {
        var consumedGroups: Set<String> = []
        for transaction in transactions where transaction.offer?.isIntroductory == true {
            if let group = configuration.subscriptionGroups[transaction.productID] ?? transaction.subscriptionGroupID {
                consumedGroups.insert(group)
            }
        }
        var result: [String: IntroEligibility] = [:]
        for product in Set(configuration.subscriptionGroups.keys).union(transactions.map(\.productID)) {
            guard let group = configuration.subscriptionGroups[product] else {
                result[product] = .unknown
                continue
            }
            result[product] = consumedGroups.contains(group) ? .ineligible : .eligible
        }
        return result
    }
}
