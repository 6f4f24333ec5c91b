public import Foundation
public import StoreKeeperAPI
public import SubscriptionEngine

/// The engine's state as the API's `Subscriber`: the one place that decides what a subscriber looks like on the
/// wire (the server's answers and `storekeeper state --json`).
extension Subscriber {
    /// A subscriber from the engine's answer.
    /// - Parameters:
    ///   - appUserID: The canonical app user id.
    ///   - aliases: Its aliases, sorted.
    ///   - firstSeen: When it was first stored (`nil` for one never seen).
    ///   - state: The engine's answer at the server's clock.
    public init(appUserID: String, aliases: [String], firstSeen: Date?, state: CustomerState) {
        self.init(
            appUserID: appUserID, aliases: aliases, firstSeen: firstSeen,
            // (The engine's `Entitlement` cannot be named here: its module has a type of the module's name.)
            entitlements: state.entitlements.map {
                StoreKeeperAPI.Entitlement(
                    identifier: $0.identifier, productID: $0.productID, expiresAt: $0.expiresAt, grantedBy: $0.grantedBy
                )
            },
            subscriptions: state.subscriptions.map(Subscription.init),
            nonSubscriptions: state.purchases.map(Purchase.init),
            introEligibility: state.introEligibility.mapValues(\.rawValue), grants: state.grants.map(Grant.init))
    }
}

extension Grant {
    /// A grant from the engine's state of it.
    public init(_ state: GrantState) {
        self.init(
            id: state.id, entitlement: state.entitlement, grantedAt: state.grantedAt, expiresAt: state.expiresAt,
            revokedAt: state.revokedAt, reason: state.reason, active: state.isActive, explanation: state.explanation)
    }
}

extension Subscription {
    /// A subscription from the engine's state of it.
    public init(_ state: SubscriptionState) {
        self.init(
            originalTransactionID: state.originalTransactionID, productID: state.productID,
            status: state.status.rawValue,
            latestTransactionID: state.latestTransactionID)
        subscriptionGroupID = state.subscriptionGroupID
        expiresAt = state.expiresAt
        gracePeriodExpiresAt = state.gracePeriodExpiresAt
        willAutoRenew = state.willAutoRenew
        autoRenewProductID = state.autoRenewProductID
        expirationReason = state.expirationReason?.rawValue
        offer = state.offer.map { SubscriptionOffer(kind: $0.kind.rawValue, identifier: $0.identifier) }
        ownership = state.ownership?.rawValue
        priceIncreaseStatus = state.priceIncreaseStatus?.rawValue
        environment = state.environment?.rawValue
        storefront = state.storefront
        price = state.price
        currency = state.currency
        isUpgraded = state.isUpgraded
        revokedAt = state.revokedAt
        revocationReason = state.revocationReason?.rawValue
        revocationType = state.revocationType?.rawValue
        revocationPercentage = state.revocationPercentage
        previousOriginalTransactionID = state.previousOriginalTransactionID
        replacedByOriginalTransactionID = state.replacedByOriginalTransactionID
        billingPlan = state.billingPlan?.rawValue
        commitment = state.commitment.map(SubscriptionCommitment.init)
        consentRescindedAt = state.consentRescindedAt
        explanation = state.explanation
    }
}

extension SubscriptionCommitment {
    /// A commitment from the engine's state of it.
    public init(_ state: CommitmentState) {
        self.init()
        billingPeriod = state.billingPeriod
        totalBillingPeriods = state.totalBillingPeriods
        endsAt = state.endsAt
        price = state.price
        willRenew = state.willRenew
        renewsToProductID = state.renewsToProductID
    }
}

extension Purchase {
    /// A purchase from the engine's state of it.
    public init(_ state: PurchaseState) {
        self.init(
            transactionID: state.transactionID, productID: state.productID, kind: state.kind.rawValue,
            purchaseDate: state.purchaseDate, expiresAt: state.expiresAt, revokedAt: state.revokedAt,
            grantsAccess: state.grantsAccess, explanation: state.explanation)
    }
}
