import Foundation
import StoreKeeperAPI
import StoreKeeperKit
import Testing

/// When a cached answer stands in for the server, what is active at an instant, and what holds offline.
@Suite struct AccessPolicyTests {
    let answeredAt = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = AccessPolicy(cacheLifetime: 300, offlineGrace: 3 * 86_400)

    func answer(expiresIn seconds: TimeInterval?) -> CachedAnswer {
        let expiry = seconds.map { answeredAt.addingTimeInterval($0) }
        let subscriber = Subscriber(
            appUserID: "u", aliases: [], firstSeen: answeredAt,
            entitlements: [Entitlement(identifier: "premium", productID: "p", expiresAt: expiry, grantedBy: "1")],
            subscriptions: [], nonSubscriptions: [], introEligibility: [:])
        let response = SubscriberResponse(
            requestDate: answeredAt, requestDateMS: Int64(answeredAt.timeIntervalSince1970 * 1000),
            subscriber: subscriber)
        return CachedAnswer(response: response, anchor: ClockAnchor(serverDate: answeredAt, clock: TestDeviceClock()))
    }

    @Test("a cached answer is fresh while younger than the lifetime and nothing it granted has ended")
    func freshness() {
        let cached = answer(expiresIn: 3_600)
        #expect(policy.isFresh(cached, at: answeredAt.addingTimeInterval(60)))
        #expect(!policy.isFresh(cached, at: answeredAt.addingTimeInterval(301)))
        #expect(!policy.isFresh(answer(expiresIn: 30), at: answeredAt.addingTimeInterval(31)))
        #expect(!policy.isFresh(cached, at: nil))
        #expect(!policy.isFresh(cached, at: answeredAt.addingTimeInterval(-1)))
    }

    @Test("online, an entitlement is active until its expiry; a lifetime one always")
    func online() {
        let cached = answer(expiresIn: 3_600)
        #expect(
            policy.decide(cached.response, at: answeredAt, verification: .server).entitlements["premium"]?.isActive
                == true)
        #expect(
            policy.decide(cached.response, at: answeredAt.addingTimeInterval(3_600), verification: .server)
                .entitlements["premium"]?.isActive == false)
        #expect(
            policy.decide(
                answer(expiresIn: nil).response, at: answeredAt.addingTimeInterval(1e9), verification: .server
            )
            .entitlements["premium"]?.isActive == true)
    }

    @Test("offline, a cached answer grants until expiry plus the grace; past it, cannot verify")
    func offline() {
        let cached = answer(expiresIn: 3_600)
        let within = policy.offline(cached, appUserID: "u", at: answeredAt.addingTimeInterval(3_600 + 2 * 86_400))
        #expect(within.verification == .offline && within.entitlements["premium"]?.isActive == true)
        let past = policy.offline(cached, appUserID: "u", at: answeredAt.addingTimeInterval(3_600 + 3 * 86_400))
        #expect(past.verification == .cannotVerify && past.activeEntitlements.isEmpty)
        let unknownTime = policy.offline(cached, appUserID: "u", at: nil)
        #expect(unknownTime.verification == .cannotVerify && unknownTime.activeEntitlements.isEmpty)
        let nothingCached = policy.offline(nil, appUserID: "u", at: answeredAt)
        #expect(nothingCached.verification == .cannotVerify && nothingCached.subscriber == nil)
    }
}
