import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// Stored data that cannot be read is an error that names it, never read as empty or skipped.
@Suite struct StoredDataErrorsTests {
    typealias Spec = StoreConformanceTests

    @Test(
        "an event whose stored detail is not JSON: reading the events fails naming the event",
        arguments: TestDatabases.backends)
    func eventDetail(_ backend: String) async throws {
        guard let store = try await StoreConformanceTests.store(backend) else { return }
        _ = try await store.apply(Spec.clientWrite("amy", "t1", original: "o1"), policy: .transfer, now: Spec.now)
        _ = try await store.database.withTransaction { tx in
            try await tx.query("UPDATE events SET detail_json = ?", [.text("{not json")])
        }
        let error = await #expect(throws: StorageError.self) {
            _ = try await store.events("amy", in: Spec.project, limit: 10)
        }
        #expect(error?.reason.contains("event 1's detail") == true, "\(String(describing: error))")
        try await store.close()
    }

    @Test(
        "a parked notification whose evidence cannot be read: the purchase that would apply it fails naming it, and stores nothing",
        arguments: TestDatabases.backends)
    func parkedEvidence(_ backend: String) async throws {
        guard let store = try await StoreConformanceTests.store(backend) else { return }
        #expect(
            try await store.apply(Spec.notification("n-early", "t2", original: "o9"), policy: .transfer, now: Spec.now)
                == .pending)
        _ = try await store.database.withTransaction { tx in
            try await tx.query("UPDATE notifications SET pending_json = ?", [.text("[]")])
        }
        let before = try await store.dump()
        let error = await #expect(throws: StorageError.self) {
            _ = try await store.apply(Spec.clientWrite("bea", "t1", original: "o9"), policy: .transfer, now: Spec.now)
        }
        #expect(error?.reason.contains("n-early") == true, "\(String(describing: error))")
        #expect(try await store.dump() == before)
        try await store.close()
    }
}
