import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// The retention setting drops the raw text of old evidence, receipts excepted, and nothing decided from it.
@Suite struct RawEvidenceRetentionTests {
    typealias Spec = StoreConformanceTests
    static let day: TimeInterval = 86_400

    @Test("old signed data loses its raw text; receipts, newer evidence and every answer stay")
    func purges() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await TestDatabases.makeStore(executor) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            let old = Spec.now.addingTimeInterval(-30 * Self.day)
            _ = try await store.apply(Spec.clientWrite("u1", "t1", original: "o1"), policy: .transfer, now: old)
            var receipt = Spec.clientWrite("u1", "t1", original: "o1")
            receipt.kind = "receipt"
            receipt.rawBody = "MIIbase64receipt"
            _ = try await store.apply(receipt, policy: .transfer, now: old)
            _ = try await store.apply(Spec.notification("n-2", "t2", original: "o1"), policy: .transfer, now: Spec.now)
            let before = try #require(try await store.subscriber("u1", in: Spec.project))

            let cutoff = Spec.now.addingTimeInterval(-7 * Self.day)
            #expect(try await store.purgeRawEvidence(receivedBefore: cutoff, limit: 10) == 1, "\(executor)")
            #expect(try await store.purgeRawEvidence(receivedBefore: cutoff, limit: 10) == 0, "\(executor): once")
            let check = try await store.checkStoredEvidence()
            #expect(check.purged == 1 && check.mismatched.isEmpty && check.checked == 2, "\(executor): \(check)")
            #expect(try await store.latestReceipt(appUserKey: Spec.project.key("u1")) == "MIIbase64receipt")
            let after = try #require(try await store.subscriber("u1", in: Spec.project))
            #expect(after.evidence == before.evidence, "\(executor): what was decided stays")
            // The same evidence posted again is recognised by its digest, as before.
            let again = try await store.apply(
                Spec.clientWrite("u1", "t1", original: "o1"), policy: .transfer, now: Spec.now)
            #expect(again == .applied(appUserID: "u1"), "\(executor)")
            try await store.close()
        }
    }
}
