import Foundation

/// Decides what changed between what was announced about a customer and the engine's answer now: the one place
/// that maps states to announced events. Pure.
///
/// Rules, per subscription:
/// - first seen: `transfer` when it moved in from another customer, otherwise `initial_purchase` (and nothing
///   else about it in that change);
/// - revoked now and not before: `refund` (alone); no longer revoked: `refund_reversed`;
/// - out of billing retry or grace into an active period: `billing_recovery`; otherwise a new period's
///   transaction: `product_change` when its product differs, else `renewal`; the same period ending later while
///   active: `subscription_extended`;
/// - auto-renew turned off (a subscription renews until its renewal info says otherwise): `cancellation`, unless
///   it expired in the same change; turned back on: `uncancellation`;
/// - active into grace or billing retry: `billing_issue`; grace into billing retry: `grace_period_expired`;
///   anything into expired: `expiration`.
///
/// Per purchase that is not an auto-renewable subscription: first seen, `non_renewing_purchase`; revoked,
/// `refund`; no longer revoked, `refund_reversed`.
///
/// Per grant of support: first seen in force, `entitlement_granted`; in force before and revoked now,
/// `entitlement_revoked` (a grant reaching its end is not announced: its end was known when it was granted).
public enum ChangeDetector {
    /// The changes from `announced` to `state`, and what is announced afterwards.
    /// - Parameters:
    ///   - announced: What was announced before (`nil`: nothing yet).
    ///   - state: The engine's answer now.
    ///   - transferredIn: Subscriptions that moved to this customer in this write.
    /// - Returns: The changes, subscriptions in id order then purchases, and the state to remember.
    public static func changes(
        from announced: AnnouncedState?, to state: CustomerState, transferredIn: Set<String> = []
    ) -> (changes: [StateChange], announced: AnnouncedState) {
        let before = announced ?? AnnouncedState()
        var changes: [StateChange] = []
        for subscription in state.subscriptions {
            changes += self.changes(
                from: before.subscriptions[subscription.originalTransactionID], to: subscription,
                transferred: transferredIn.contains(subscription.originalTransactionID))
        }
        for purchase in state.purchases {
            func change(_ kind: ChangeKind, at date: Date?) -> StateChange {
                StateChange(
                    kind: kind, originalTransactionID: nil, transactionID: purchase.transactionID,
                    productID: purchase.productID, storeTimestamp: date)
            }
            let revoked = purchase.revokedAt != nil
            switch before.purchases[purchase.transactionID]?.revoked {
            case nil: changes.append(change(.nonRenewingPurchase, at: purchase.purchaseDate))
            case false? where revoked: changes.append(change(.refund, at: purchase.revokedAt))
            case true? where !revoked: changes.append(change(.refundReversed, at: nil))
            default: break
            }
        }
        for grant in state.grants {
            func change(_ kind: ChangeKind, at date: Date?) -> StateChange {
                StateChange(
                    kind: kind, originalTransactionID: nil, transactionID: grant.id, productID: GrantState.productID,
                    storeTimestamp: date)
            }
            switch before.grants?[grant.id] {
            case nil where grant.isActive: changes.append(change(.entitlementGranted, at: grant.grantedAt))
            case true? where grant.revokedAt != nil: changes.append(change(.entitlementRevoked, at: grant.revokedAt))
            default: break
            }
        }
        return (changes, AnnouncedState(state))
    }

    /// The changes of one subscription.
    static func changes(from old: AnnouncedSubscription?, to new: SubscriptionState, transferred: Bool)
        -> [StateChange]
    {
        func change(_ kind: ChangeKind, at date: Date?) -> StateChange {
            StateChange(
                kind: kind, originalTransactionID: new.originalTransactionID, transactionID: new.latestTransactionID,
                productID: new.productID, storeTimestamp: date)
        }
        guard let old else { return [change(transferred ? .transfer : .initialPurchase, at: new.purchasedAt)] }
        if new.status == .revoked {
            return old.status == .revoked ? [] : [change(.refund, at: new.revokedAt)]
        }
        var changes: [StateChange] = []
        if old.status == .revoked { changes.append(change(.refundReversed, at: nil)) }
        let failing: Set<SubscriptionState.Status> = [.inBillingRetry, .inGracePeriod]
        let newPeriod = new.latestTransactionID != old.transactionID
        if failing.contains(old.status), new.status == .active {
            changes.append(change(.billingRecovery, at: newPeriod ? new.purchasedAt : nil))
        } else if newPeriod {
            changes.append(change(new.productID == old.productID ? .renewal : .productChange, at: new.purchasedAt))
        } else if new.status == .active, let was = old.expiresAt, let now = new.expiresAt, now > was {
            changes.append(change(.subscriptionExtended, at: nil))
        }
        // An auto-renewable subscription renews unless its renewal info says otherwise.
        if let renews = new.willAutoRenew, renews != (old.willAutoRenew ?? true) {
            if !renews, new.status != .expired {
                changes.append(change(.cancellation, at: nil))
            } else if renews {
                changes.append(change(.uncancellation, at: nil))
            }
        }
        switch (old.status, new.status) {
        case (.active, .inGracePeriod), (.active, .inBillingRetry), (.revoked, .inGracePeriod),
            (.revoked, .inBillingRetry):
            changes.append(change(.billingIssue, at: nil))
        case (.inGracePeriod, .inBillingRetry):
            changes.append(change(.gracePeriodExpired, at: new.gracePeriodExpiresAt))
        case (let was, .expired) where was != .expired: changes.append(change(.expiration, at: new.expiresAt))
        default: break
        }
        if let rescinded = new.consentRescindedAt, old.consentRescinded != true {
            changes.append(change(.consentRescinded, at: rescinded))
        }
        return changes
    }
}
