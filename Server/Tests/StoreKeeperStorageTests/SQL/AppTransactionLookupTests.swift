import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// A parent's rescinded consent names an app transaction: the store finds the subscriptions and purchases whose
/// transactions carry it, by owning subscriber, in one project only, and keeps the rescission with their evidence.
@Suite struct AppTransactionLookupTests {
    static let now = StoreConformanceTests.now

    static func write(_ project: ProjectScope, user: String, transaction id: String, appTransactionID: String?)
        -> EvidenceWrite
    {
        var evidence = EvidenceSet()
        var transaction = Transaction(transactionID: id, originalTransactionID: id, productID: "p", source: .signedData)
        transaction.purchaseDate = now
        transaction.expiresAt = now.addingTimeInterval(3600)
        transaction.observedAt = now
        transaction.appTransactionID = appTransactionID
        evidence.insert(transaction)
        return EvidenceWrite(
            project: project, bundleID: project.id, appUserID: user, kind: "signed_transaction", rawBody: "jws-\(id)",
            evidence: evidence, originalTransactionIDs: [id], cause: .client, eventType: "transaction_posted")
    }

    @Test("found by app transaction, per owner, never in another project; the rescission is stored with the evidence")
    func lookup() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            let mine = try ProjectScope("com.mine_app"), theirs = try ProjectScope("com.mineXapp")
            for (project, user, id, app) in [
                (mine, "kid", "1", "704000000000000001"), (mine, "kid", "2", "704000000000000001"),
                (mine, "sibling", "3", "704000000000000001"), (mine, "adult", "4", "704000000000000002"),
                (theirs, "kid", "5", "704000000000000001"), (mine, "receipt", "6", nil),
            ] {
                _ = try await store.apply(
                    Self.write(project, user: user, transaction: id, appTransactionID: app), policy: .transfer,
                    now: Self.now)
            }
            let found = try await store.originals(appTransactionID: "704000000000000001", in: mine)
            #expect(found == ["com.mine_app:kid": ["1", "2"], "com.mine_app:sibling": ["3"]], "\(executor)")
            #expect(try await store.originals(appTransactionID: "704000000000000009", in: mine).isEmpty)
            #expect(try await store.originals(appTransactionID: "%", in: mine).isEmpty, "a wildcard names nothing")
            #expect(try await store.originals(appTransactionID: "", in: mine).isEmpty)

            var evidence = EvidenceSet()
            evidence.insert(
                ConsentRescission(
                    originalTransactionID: "1", appTransactionID: "704000000000000001", rescindedAt: Self.now))
            _ = try await store.apply(
                EvidenceWrite(
                    project: mine, bundleID: mine.id, appUserID: nil, kind: "notification_v2", rawBody: "rescind",
                    evidence: evidence, originalTransactionIDs: ["1"], cause: .notification, notificationID: "n-1",
                    eventType: "RESCIND_CONSENT"),
                policy: .transfer, now: Self.now)
            let kid = try #require(try await store.subscriber("kid", in: mine))
            #expect(kid.evidence.consentRescissions?.map(\.originalTransactionID) == ["1"], "\(executor)")
            #expect(kid.evidence.transactions.count == 2)
            let other = try #require(try await store.subscriber("kid", in: theirs))
            #expect(other.evidence.consentRescissions == nil)
            try await store.close()
        }
    }
}
