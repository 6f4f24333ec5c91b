import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import StoreKeeperStorage
import SubscriptionEngine
import Testing

/// What the announcer writes for support's grants: `entitlement_granted` and `entitlement_revoked`, naming the
/// entitlement the grant gives (no product gives it), once each.
@Suite struct WebhookAnnouncerGrantTests {
    let announcer = WebhookAnnouncer(engine: SubscriptionEngine(configuration: ServerConfiguration.demoEngine))
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func change(_ evidence: EvidenceSet, announced: AnnouncedState?, at now: Date) -> SubscriberChange {
        SubscriberChange(
            appUserID: "carol", projectID: "p", bundleID: "com.example.app", aliases: [], firstSeen: start,
            announced: announced, evidence: evidence, transferredIn: [], cause: .support, causeID: nil,
            listening: true, now: now)
    }

    func events(_ announcement: Announcement) throws -> [WebhookEvent] {
        try announcement.events.map { try APICoding.decoder().decode(WebhookEvent.self, from: Data($0.body.utf8)) }
    }

    @Test("a grant is announced once with its entitlement; its revocation once; its end is not announced")
    func grantAndRevocation() throws {
        var evidence = EvidenceSet()
        evidence.insert(
            EntitlementGrant(
                id: "grant_1", entitlement: "basic", grantedAt: start, expiresAt: start.addingTimeInterval(86_400),
                reason: "outage"))
        let granted = try announcer.announce(change(evidence, announced: nil, at: start))
        let first = try events(granted)
        #expect(first.map(\.type) == ["entitlement_granted"])
        #expect(first.first?.entitlements == ["basic"] && first.first?.productID == "$grant")
        #expect(first.first?.transactionID == "grant_1" && first.first?.cause == "support")
        #expect(first.first?.subscriber.entitlements.map(\.identifier) == ["basic"])
        #expect(granted.dueAt == start.addingTimeInterval(86_400), "the end is when the answer changes next")

        // The same state again: nothing new.
        let again = try announcer.announce(change(evidence, announced: granted.announced, at: start + 60))
        #expect(again.events.isEmpty)

        var revoked = evidence
        revoked.insert(GrantRevocation(grantID: "grant_1", revokedAt: start + 120))
        let taken = try announcer.announce(change(revoked, announced: granted.announced, at: start + 120))
        #expect(try events(taken).map(\.type) == ["entitlement_revoked"])
        #expect(try events(taken).first?.entitlements == ["basic"])
        #expect(try events(taken).first?.subscriber.entitlements.isEmpty == true)

        // Reaching its end is known from the grant: no event.
        let ended = try announcer.announce(
            change(evidence, announced: granted.announced, at: start.addingTimeInterval(86_401)))
        #expect(ended.events.isEmpty)
    }
}
