import Foundation
import SubscriptionEngine
import Testing

/// A customer's story told as the evidence arrives and the clock moves: each `look` evaluates the engine and
/// announces what changed since the last look, as the server does after every write and at every due time.
private struct Story {
    var evidence = EvidenceSet()
    var announced: AnnouncedState?
    let engine = SubscriptionEngine()

    mutating func look(at day: Double, transferredIn: Set<String> = []) -> [ChangeKind] {
        let found = ChangeDetector.changes(
            from: announced, to: engine.evaluate(evidence, at: Apple.day(day)), transferredIn: transferredIn)
        announced = found.announced
        return found.changes.map(\.kind)
    }
}

@Suite struct ChangeDetectorTests {
    @Test("a purchase, its renewal, auto-renew off and the end of the period are announced once each")
    func monthlyLife() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        #expect(story.look(at: 0.1) == [.initialPurchase])
        #expect(story.look(at: 0.2) == [], "the same state again announces nothing")
        story.evidence.add(transaction: Apple.transaction("2", original: "1", bought: 30, expires: 60))
        #expect(story.look(at: 30.1) == [.renewal])
        story.evidence.add(renewalInfo: Apple.renewal("1", autoRenew: false, signed: 40))
        #expect(story.look(at: 40.1) == [.cancellation])
        story.evidence.add(renewalInfo: Apple.renewal("1", autoRenew: true, signed: 45))
        #expect(story.look(at: 45.1) == [.uncancellation])
        story.evidence.add(renewalInfo: Apple.renewal("1", autoRenew: false, signed: 50))
        #expect(story.look(at: 50.1) == [.cancellation])
        #expect(story.look(at: 59.9) == [])
        #expect(story.look(at: 60.1) == [.expiration], "the clock alone ends the period")
        #expect(story.look(at: 90) == [])
    }

    @Test("a failed renewal: billing issue, the grace period ends, then billing recovers with a new period")
    func billingTrouble() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        _ = story.look(at: 1)
        story.evidence.add(renewalInfo: Apple.renewal("1", signed: 30, billingRetry: true, graceUntil: 36))
        #expect(story.look(at: 30.1) == [.billingIssue])
        #expect(story.look(at: 36.1) == [.gracePeriodExpired])
        story.evidence.add(transaction: Apple.transaction("2", original: "1", bought: 40, expires: 70))
        story.evidence.add(renewalInfo: Apple.renewal("1", signed: 40))
        #expect(story.look(at: 40.1) == [.billingRecovery])
    }

    @Test("a refund is announced alone, and a revoked subscription stays quiet")
    func refund() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        _ = story.look(at: 1)
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30, signed: 5, revoked: 5))
        story.evidence.add(renewalInfo: Apple.renewal("1", autoRenew: false, signed: 5))
        #expect(story.look(at: 5.1) == [.refund])
        #expect(story.look(at: 31) == [])
    }

    @Test("an upgrade is a product change; an extension of the same period is subscription_extended")
    func productChangeAndExtension() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        _ = story.look(at: 1)
        story.evidence.add(
            transaction: Apple.transaction("2", original: "1", product: "yearly", bought: 10, expires: 375))
        #expect(story.look(at: 10.1) == [.productChange])
        story.evidence.add(
            transaction: Apple.transaction("2", original: "1", product: "yearly", bought: 10, expires: 380, signed: 20))
        #expect(story.look(at: 20.1) == [.subscriptionExtended])
    }

    @Test("a subscription that moved in from another customer is a transfer, not a purchase")
    func transfer() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        #expect(story.look(at: 1, transferredIn: ["1"]) == [.transfer])
    }

    @Test("a purchase that does not renew, then its refund")
    func nonRenewing() {
        var story = Story()
        story.evidence.add(transaction: Apple.transaction("9", product: "lifetime", bought: 0, type: "Non-Consumable"))
        #expect(story.look(at: 1) == [.nonRenewingPurchase])
        story.evidence.add(
            transaction: Apple.transaction(
                "9", product: "lifetime", bought: 0, signed: 3, type: "Non-Consumable", revoked: 3))
        #expect(story.look(at: 4) == [.refund])
    }

    @Test("changes carry the subscription, its transaction, product and the App Store's time")
    func changeFacts() throws {
        var evidence = EvidenceSet()
        evidence.add(transaction: Apple.transaction("2", original: "1", bought: 30, expires: 60))
        let announced = AnnouncedState(
            subscriptions: [
                "1": AnnouncedSubscription(
                    SubscriptionEngine().evaluate(
                        {
                            var first = EvidenceSet()
                            first.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
                            return first
                        }(), at: Apple.day(1)
                    ).subscriptions[0])
            ])
        let change = try #require(
            ChangeDetector.changes(from: announced, to: SubscriptionEngine().evaluate(evidence, at: Apple.day(31)))
                .changes.first)
        #expect(
            change
                == StateChange(
                    kind: .renewal, originalTransactionID: "1", transactionID: "2", productID: "monthly",
                    storeTimestamp: Apple.day(30)))
    }

    @Test("the announced state survives its JSON, and a merge keeps the target's own announcements")
    func announcedStateStorage() throws {
        var evidence = EvidenceSet()
        evidence.add(transaction: Apple.transaction("1", bought: 0, expires: 30))
        evidence.add(transaction: Apple.transaction("9", product: "lifetime", bought: 0, type: "Non-Consumable"))
        let state = AnnouncedState(SubscriptionEngine().evaluate(evidence, at: Apple.day(1)))
        let decoded = try JSONDecoder().decode(AnnouncedState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        var other = AnnouncedState()
        other.subscriptions["1"] = state.subscriptions["1"].map {
            var changed = $0
            changed.status = .expired
            return changed
        }
        other.subscriptions["7"] = state.subscriptions["1"]
        let merged = state.merging(other)
        #expect(merged.subscriptions["1"]?.status == .active)
        #expect(Set(merged.subscriptions.keys) == ["1", "7"])
        #expect(Set(merged.purchases.keys) == ["9"])
    }
}
