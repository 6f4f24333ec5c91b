/// The rules the engine applies, named so explanations and tests can point at them.
public enum SubscriptionRule: String, Sendable, CaseIterable {
    /// A cancellation / revocation date overrides the expiry date, from that moment on.
    case revocationOverridesExpiry = "revocation-overrides-expiry"
    /// A refund of an older period does not revoke the current period; only the current period's
    /// revocation does.
    case onlyCurrentPeriodRevocationRevokes = "only-current-period-revocation-revokes"
    /// Among a subscription's transactions, the latest expiry (by period, not by arrival) decides.
    case latestExpiryDecides = "latest-expiry-decides"
    /// An upgraded transaction ends at the upgrade; the new product's transaction carries on.
    case upgradeEndsPeriod = "upgrade-ends-period"
    /// A pending downgrade or crossgrade takes effect at the next renewal (shown as the auto-renew product).
    case downgradeAtRenewal = "downgrade-at-renewal"
    /// In the billing grace period, access continues until the grace period ends.
    case gracePeriodKeepsAccess = "grace-period-keeps-access"
    /// In billing retry without grace, there is no access.
    case billingRetryWithoutAccess = "billing-retry-without-access"
    /// Renewal info observed before the current period began does not describe it.
    case staleRenewalInfoIgnored = "stale-renewal-info-ignored"
    /// A family-shared purchase grants access until it is revoked.
    case familySharedUntilRevoked = "family-shared-until-revoked"
    /// A non-consumable grants access forever unless revoked.
    case nonConsumableForever = "non-consumable-forever"
    /// Consumables are recorded, never entitlements.
    case consumableNotEntitlement = "consumable-not-entitlement"
    /// A non-renewing subscription lasts the configured duration from its purchase.
    case nonRenewingConfiguredDuration = "non-renewing-configured-duration"
    /// As known then (an audit): evidence observed after the evaluated instant is not used for that instant.
    case evidenceAfterInstantIgnored = "evidence-after-instant-ignored"
    /// As it happened: evidence observed later is read for what it says about the instant — purchases, refunds and
    /// upgrades dated by then, and renewal info that still describes the period current then.
    case laterEvidenceDatesThePast = "later-evidence-dates-the-past"
    /// An introductory offer in any product of a group makes the whole group ineligible.
    case introConsumedPerGroup = "intro-consumed-per-group"
    /// A commitment plan (monthly billing within a 12-month commitment) bills every period to the commitment's
    /// end even after the customer cancels it; cancelling stops only the next commitment.
    case commitmentBillsToItsEnd = "commitment-bills-to-its-end"
    /// A subscription that names a previous one (a switch between a standalone subscription and a subscription
    /// bundle) carries the customer on; the previous one is said to be replaced.
    case switchReplacesPrevious = "switch-replaces-previous"
    /// After a parent or guardian rescinds consent for a minor's use of the app, nothing bought before grants
    /// access; a purchase after it does.
    case consentRescindedWithholdsAccess = "consent-rescinded-withholds-access"
    /// Past periods and renewal info that later observations superseded change no answer from then on: a store may
    /// keep them apart from what it evaluates (``SubscriptionEngine/fold(_:at:)``).
    case supersededHistoryFolds = "superseded-history-folds"
    /// An entitlement support granted is in force from the grant until its end or its revocation, beside whatever
    /// purchases give the same entitlement: the latest end of all its sources is the entitlement's.
    case supportGrant = "support-grant"
}
