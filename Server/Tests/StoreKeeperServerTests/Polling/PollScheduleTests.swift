import AppStoreModels
import Foundation
import SubscriptionEngine
import Testing

@testable import StoreKeeperServer

/// When a subscriber is next asked about at Apple, and when the clock's changes to it are announced.
@Suite struct PollScheduleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let month: TimeInterval = 30 * 86_400

    /// A monthly subscription bought at `start`, auto-renewing.
    static func monthly() throws -> EvidenceSet {
        let ms = Int64(start.timeIntervalSince1970 * 1000)
        let object: [String: Any] = [
            "transactionId": "1", "originalTransactionId": "1", "productId": "monthly", "bundleId": "com.example.app",
            "purchaseDate": ms, "originalPurchaseDate": ms, "expiresDate": ms + Int64(month * 1000), "quantity": 1,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "environment": "Sandbox",
            "signedDate": ms,
        ]
        let renewal: [String: Any] = [
            "originalTransactionId": "1", "productId": "monthly", "autoRenewProductId": "monthly", "autoRenewStatus": 1,
            "signedDate": ms, "environment": "Sandbox",
        ]
        var evidence = EvidenceSet()
        evidence.add(
            transaction: try JSONDecoder().decode(
                JWSTransactionDecodedPayload.self, from: JSONSerialization.data(withJSONObject: object)))
        evidence.add(
            renewalInfo: try JSONDecoder().decode(
                JWSRenewalInfoDecodedPayload.self, from: JSONSerialization.data(withJSONObject: renewal)))
        return evidence
    }

    @Test("an active subscription is asked about shortly after its period ends, when its renewal is due")
    func afterTheEnd() throws {
        let schedule = PollSchedule()
        let state = SubscriptionEngine().evaluate(try Self.monthly(), at: Self.start.addingTimeInterval(60))
        let end = Self.start.addingTimeInterval(Self.month)
        #expect(schedule.next(state, now: Self.start, random: 0) == end.addingTimeInterval(300))
        #expect(schedule.next(state, now: Self.start, random: 1) == end.addingTimeInterval(330), "10 % jitter at most")
    }

    @Test("a period that ended with the renewal not yet seen is still asked about once just after its end")
    func renewalMissing() throws {
        let schedule = PollSchedule()
        let end = Self.start.addingTimeInterval(Self.month)
        // The clock passed the end (as when the server announces the expiry) before the poll ran.
        let justAfter = SubscriptionEngine().evaluate(try Self.monthly(), at: end.addingTimeInterval(1))
        #expect(justAfter.subscriptions.first?.status == .expired)
        #expect(schedule.next(justAfter, now: end.addingTimeInterval(1), random: 0) == end.addingTimeInterval(300))
        // That poll found nothing: every few hours from then on.
        let polled = end.addingTimeInterval(301)
        let later = SubscriptionEngine().evaluate(try Self.monthly(), at: polled)
        #expect(schedule.next(later, now: polled, random: 0) == polled.addingTimeInterval(4 * 3_600))
    }

    @Test("an auto-renewing period's end is announced only after the poll that may find its renewal")
    func expiryWaitsForThePoll() throws {
        let announcer = WebhookAnnouncer(engine: SubscriptionEngine())
        let state = SubscriptionEngine().evaluate(try Self.monthly(), at: Self.start.addingTimeInterval(60))
        let end = Self.start.addingTimeInterval(Self.month)
        #expect(announcer.announcementDue(state, next: end) == end.addingTimeInterval(300 * 1.1 + 60))
        let other = end.addingTimeInterval(-86_400)
        #expect(announcer.announcementDue(state, next: other) == other, "any other instant is kept")
    }
}
