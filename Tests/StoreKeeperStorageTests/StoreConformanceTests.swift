import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestSupport
import Testing

/// One suite, every backend: SQLite and PostgreSQL must behave identically.
@Suite struct StoreConformanceTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    /// The project every write of this suite belongs to.
    static let project = try! ProjectScope("com.example")

    func store(_ backend: String) async throws -> SQLStore? {
        let store = try await TestDatabases.makeStore(backend)
        if store == nil {
            if TestDatabases.postgresRequired {
                Issue.record("PostgreSQL is required here but no server is configured")
            }
        }
        return store
    }

    static func evidence(_ transactionID: String, original: String, product: String = "monthly") -> EvidenceSet {
        var set = EvidenceSet()
        var transaction = Transaction(
            transactionID: transactionID, originalTransactionID: original, productID: product, source: .signedData)
        transaction.purchaseDate = now
        transaction.expiresAt = now.addingTimeInterval(3600)
        transaction.observedAt = now
        set.insert(transaction)
        return set
    }

    static func clientWrite(_ user: String, _ transactionID: String, original: String) -> EvidenceWrite {
        EvidenceWrite(
            project: Self.project, bundleID: "com.example", appUserID: user, kind: "signed_transaction",
            rawBody: "jws-\(transactionID)",
            evidence: evidence(transactionID, original: original), originalTransactionIDs: [original], cause: .client,
            eventType: "transaction_posted", detail: ["transaction_id": transactionID])
    }

    static func notification(_ uuid: String, _ transactionID: String, original: String) -> EvidenceWrite {
        EvidenceWrite(
            project: Self.project, bundleID: "com.example", appUserID: nil, kind: "notification_v2",
            rawBody: "signed-\(uuid)",
            evidence: evidence(transactionID, original: original), originalTransactionIDs: [original],
            cause: .notification,
            notificationID: uuid, eventType: "DID_RENEW")
    }

    @Test("migrations are versioned and idempotent", arguments: TestDatabases.backends)
    func migrations(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        #expect(try await store.migrate() == 5)
        #expect(try await store.migrate() == 5)
        try await store.close()
    }

    @Test("a client write stores evidence, state and an event together", arguments: TestDatabases.backends)
    func clientWrite(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        let outcome = try await store.apply(
            Self.clientWrite("alice", "t1", original: "o1"), policy: .transfer, now: Self.now)
        #expect(outcome == .applied(appUserID: "alice"))
        let subscriber = try #require(try await store.subscriber("alice", in: StoreConformanceTests.project))
        #expect(subscriber.evidence.transactions.map(\.transactionID) == ["t1"])
        let events = try await store.events("alice", in: StoreConformanceTests.project, limit: 100)
        #expect(events.map(\.type) == ["transaction_posted"])
        #expect(events[0].cause == .client && events[0].evidenceID != nil)
        #expect(try await store.subscriber("nobody", in: StoreConformanceTests.project) == nil)
        try await store.close()
    }

    @Test("a duplicate notification is acknowledged and applied once", arguments: TestDatabases.backends)
    func duplicates(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        _ = try await store.apply(Self.clientWrite("bob", "t1", original: "o1"), policy: .transfer, now: Self.now)
        #expect(
            try await store.apply(Self.notification("n-1", "t2", original: "o1"), policy: .transfer, now: Self.now)
                == .applied(appUserID: "bob"))
        let dump = try await store.dump()
        #expect(
            try await store.apply(Self.notification("n-1", "t2", original: "o1"), policy: .transfer, now: Self.now)
                == .duplicate)
        #expect(try await store.dump() == dump)
        #expect(try await store.events("bob", in: StoreConformanceTests.project, limit: 100).count == 2)
        try await store.close()
    }

    @Test(
        "a notification for an unknown subscription waits, then applies when the transaction arrives",
        arguments: TestDatabases.backends)
    func pendingNotifications(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        #expect(
            try await store.apply(Self.notification("n-early", "t2", original: "o9"), policy: .transfer, now: Self.now)
                == .pending)
        #expect(
            try await store.apply(Self.notification("n-early", "t2", original: "o9"), policy: .transfer, now: Self.now)
                == .duplicate)
        _ = try await store.apply(Self.clientWrite("carol", "t1", original: "o9"), policy: .transfer, now: Self.now)
        let subscriber = try #require(try await store.subscriber("carol", in: StoreConformanceTests.project))
        #expect(Set(subscriber.evidence.transactions.map(\.transactionID)) == ["t1", "t2"])
        #expect(
            try await store.events("carol", in: StoreConformanceTests.project, limit: 100).contains {
                $0.detail["applied"] == "late"
            })
        try await store.close()
    }

    @Test(
        "transfer policy: transfer moves the subscription; keep-first refuses, both recorded",
        arguments: TestDatabases.backends)
    func transfers(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        _ = try await store.apply(Self.clientWrite("dan", "t1", original: "o1"), policy: .transfer, now: Self.now)
        _ = try await store.apply(Self.clientWrite("eve", "t1", original: "o1"), policy: .keepFirst, now: Self.now)
        #expect(
            try await store.subscriber("eve", in: StoreConformanceTests.project)?.evidence.transactions.isEmpty == true)
        #expect(
            try await store.events("eve", in: StoreConformanceTests.project, limit: 10).contains {
                $0.type == "transfer_refused" && $0.detail["owner"] == "dan"
            })
        _ = try await store.apply(Self.clientWrite("eve", "t1", original: "o1"), policy: .transfer, now: Self.now)
        #expect(
            try await store.subscriber("eve", in: StoreConformanceTests.project)?.evidence.transactions.map(
                \.transactionID) == ["t1"])
        #expect(
            try await store.subscriber("dan", in: StoreConformanceTests.project)?.evidence.transactions.isEmpty == true)
        let out = try await store.events("dan", in: StoreConformanceTests.project, limit: 10).first {
            $0.type == "subscription_transferred_out"
        }
        #expect(out?.detail["from"] == "dan" && out?.detail["to"] == "eve")
        try await store.close()
    }

    @Test("aliases merge identities", arguments: TestDatabases.backends)
    func aliases(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        _ = try await store.apply(Self.clientWrite("anon-1", "t1", original: "o1"), policy: .transfer, now: Self.now)
        _ = try await store.apply(Self.clientWrite("fred", "t5", original: "o5"), policy: .transfer, now: Self.now)
        try await store.alias(
            "anon-1", to: "fred", in: StoreConformanceTests.project, bundleID: "com.example", now: Self.now)
        let fred = try #require(try await store.subscriber("anon-1", in: StoreConformanceTests.project))
        #expect(fred.appUserID == "fred" && fred.aliases == ["anon-1"])
        #expect(Set(fred.evidence.transactions.map(\.transactionID)) == ["t1", "t5"])
        // Later evidence for the alias lands on the merged subscriber.
        _ = try await store.apply(Self.clientWrite("anon-1", "t6", original: "o1"), policy: .transfer, now: Self.now)
        #expect(try await store.subscriber("fred", in: StoreConformanceTests.project)?.evidence.transactions.count == 3)
        try await store.close()
    }

    @Test("API keys are found by hash", arguments: TestDatabases.backends)
    func apiKeys(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        try await store.registerAPIKey(hash: "abc", kind: .public, bundleID: "com.example")
        #expect(try await store.apiKey(hash: "abc") == APIKeyRecord(kind: .public, bundleID: "com.example"))
        #expect(try await store.apiKey(hash: "nope") == nil)
        try await store.close()
    }

    @Test("a transaction that fails midway leaves nothing behind", arguments: TestDatabases.backends)
    func rollback(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        _ = try await store.apply(Self.clientWrite("gil", "t1", original: "o1"), policy: .transfer, now: Self.now)
        let before = try await store.dump()
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await store.database.withTransaction { tx in
                try await tx.query(
                    "INSERT INTO aliases (alias, app_user_id) VALUES (?, ?)", [.text("x"), .text("gil")])
                throw Boom()
            }
        }
        #expect(try await store.dump() == before)
        try await store.close()
    }

    @Test("concurrent writes all commit", arguments: TestDatabases.backends)
    func concurrency(_ backend: String) async throws {
        guard let store = try await store(backend) else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    _ = try await store.apply(
                        Self.clientWrite("user-\(index % 6)", "t\(index)", original: "o\(index)"),
                        policy: .transfer, now: Self.now)
                }
            }
            try await group.waitForAll()
        }
        var total = 0
        for user in 0..<6 {
            total +=
                try await store.subscriber("user-\(user)", in: StoreConformanceTests.project)?.evidence.transactions
                .count ?? 0
        }
        #expect(total == 24)
        try await store.close()
    }
}
