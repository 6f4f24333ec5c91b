import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// A project's reads by key prefix are exact on every database: SQLite's `LIKE` folds ASCII case, so before the
/// filter compared the prefix by equality, project `alpha`'s customer list and event feed held project `Alpha`'s
/// rows, and a rollup rebuild or audit of one touched the other's.
@Suite struct ProjectKeyFilterTests {
    @Test("projects whose ids differ only in case read none of each other's customers or events")
    func caseTwins() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            let lower = try ProjectScope("alpha"), upper = try ProjectScope("Alpha"), under = try ProjectScope("a_pha")
            for (project, user, id) in [(lower, "ann", "1"), (upper, "victim", "2"), (under, "other", "3")] {
                _ = try await store.apply(
                    AppTransactionLookupTests.write(project, user: user, transaction: id, appTransactionID: "7"),
                    policy: .transfer, now: AppTransactionLookupTests.now)
            }
            let page = try await store.evidencePage(in: lower, after: nil, limit: 100)
            #expect(page.map(\.storageKey) == ["alpha:ann"], "\(executor)")
            let feed = try await store.eventFeed(in: lower, after: nil, limit: 100)
            #expect(feed.events.allSatisfy { $0.appUserID.hasSuffix("ann") } && !feed.events.isEmpty, "\(executor)")
            #expect(try await store.originals(appTransactionID: "7", in: lower) == ["alpha:ann": ["1"]], "\(executor)")
            #expect(
                try await store.evidencePage(in: upper, after: nil, limit: 100).map(\.storageKey) == ["Alpha:victim"])
            try await store.close()
        }
    }
}
