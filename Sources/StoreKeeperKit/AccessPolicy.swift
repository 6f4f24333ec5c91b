public import Foundation
public import StoreKeeperAPI

/// The one place StoreKeeperKit decides access: when a cached answer may stand in for the server, what is
/// active at an instant, and what holds when the server cannot be reached. Pure: instants come in, never from a
/// clock.
public struct AccessPolicy: Sendable, Hashable {
    /// How long a server answer is used without asking again. Default 5 minutes.
    public var cacheLifetime: TimeInterval
    /// How long past an entitlement's expiry a cached answer keeps granting while the server cannot be reached.
    /// Default 3 days.
    public var offlineGrace: TimeInterval

    /// Makes a policy.
    public init(cacheLifetime: TimeInterval = 300, offlineGrace: TimeInterval = 3 * 86_400) {
        self.cacheLifetime = cacheLifetime
        self.offlineGrace = offlineGrace
    }

    /// Whether `answer` may be used without asking the server at `now`: it is younger than ``cacheLifetime`` by
    /// the server's clock, and nothing it granted has ended since (an end means a renewal or an expiry to learn
    /// about). An unknown `now` is never fresh.
    public func isFresh(_ answer: CachedAnswer, at now: Date?) -> Bool {
        guard let now else { return false }
        let age = now.timeIntervalSince(answer.response.requestDate)
        guard age >= 0, age < cacheLifetime else { return false }
        return !answer.response.subscriber.entitlements.contains { $0.expiresAt.map { $0 <= now } ?? false }
    }

    /// The customer's access at `now` from a server answer. Offline, an entitlement stays active for
    /// ``offlineGrace`` past its expiry; an unknown `now` grants nothing.
    public func decide(
        _ response: SubscriberResponse, at now: Date?, verification: CustomerInfo.Verification
    ) -> CustomerInfo {
        let allowance = verification == .offline ? offlineGrace : 0
        let subscriber = response.subscriber
        var entitlements: [String: EntitlementInfo] = [:]
        for entitlement in subscriber.entitlements {
            let subscription = subscriber.subscriptions.first {
                $0.originalTransactionID == entitlement.grantedBy || $0.latestTransactionID == entitlement.grantedBy
            }
            let active = now.map { now in entitlement.expiresAt.map { now < $0.addingTimeInterval(allowance) } ?? true }
            entitlements[entitlement.identifier] = EntitlementInfo(
                identifier: entitlement.identifier, isActive: active ?? false, productID: entitlement.productID,
                expiresAt: entitlement.expiresAt, willRenew: subscription?.willAutoRenew ?? false,
                periodType: Self.periodType(subscription?.offer), grantedBy: entitlement.grantedBy)
        }
        var info = CustomerInfo(
            appUserID: subscriber.appUserID, entitlements: entitlements, verification: verification, decidedAt: now,
            requestDate: response.requestDate, subscriber: subscriber)
        if !subscriber.subscriptions.isEmpty { info.managementURL = CustomerInfo.appStoreManagementURL }
        return info
    }

    /// The customer's access at `now` when the server cannot be reached: the cached answer within the offline
    /// grace (``CustomerInfo/Verification/offline``), or ``CustomerInfo/Verification/cannotVerify`` when there is
    /// no cached answer, `now` is unknown, or something the answer granted is past its grace.
    public func offline(_ answer: CachedAnswer?, appUserID: String, at now: Date?) -> CustomerInfo {
        guard let answer, now != nil else {
            var info = answer.map { decide($0.response, at: nil, verification: .cannotVerify) }
            info?.decidedAt = nil
            return info
                ?? CustomerInfo(
                    appUserID: appUserID, entitlements: [:], verification: .cannotVerify, decidedAt: nil,
                    requestDate: nil, subscriber: nil)
        }
        var info = decide(answer.response, at: now, verification: .offline)
        if info.entitlements.values.contains(where: { !$0.isActive }) { info.verification = .cannotVerify }
        return info
    }

    /// The customer's access at `now` when the server's answer failed its signature check: the last verified
    /// cached answer by its own expiry dates (no offline grace), or nothing; either way
    /// ``CustomerInfo/Verification/failed``.
    public func failed(_ answer: CachedAnswer?, appUserID: String, at now: Date?) -> CustomerInfo {
        guard let answer else {
            return CustomerInfo(
                appUserID: appUserID, entitlements: [:], verification: .failed, decidedAt: now, requestDate: nil,
                subscriber: nil)
        }
        return decide(answer.response, at: now, verification: .failed)
    }

    /// The period type an entitlement reports for the offer of its current period.
    static func periodType(_ offer: SubscriptionOffer?) -> String {
        switch offer?.kind {
        case nil: "normal"
        case "freeTrial": "trial"
        case "introPayAsYouGo", "introPayUpFront", "introductory": "intro"
        case let other?: other
        }
    }
}
