import Foundation
import StoreKeeperStorage
import SubscriptionEngine
import TestDatabaseSupport
import TestSupport
import Testing

/// One suite, every write executor: SQLite, PostgreSQL one write at a time and PostgreSQL group commit must
/// behave identically. Each case runs on a fresh store of each, and the stores' dumps must be equal.
@Suite struct StoreConformanceTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    /// The project every write of this suite belongs to.
    static let project = try! ProjectScope("com.example")

    /// A fresh store of `backend`, or `nil` (an issue recorded when PostgreSQL is required) without a server.
    static func store(_ backend: String) async throws -> SQLStore? {
        let store = try await TestDatabases.makeStore(backend)
        if store == nil {
            if TestDatabases.postgresRequired {
                Issue.record("PostgreSQL is required here but no server is configured")
            }
        }
        return store
    }

    /// Runs `body` on a fresh store of every executor (``TestDatabases/executors``; PostgreSQL's only when a
    /// server is configured), then expects the same dump from each unless `sameDump` is false (a case whose
    /// writes race).
    func onEveryExecutor(sameDump: Bool = true, _ body: (SQLStore) async throws -> Void) async throws {
        var dumps: [(String, String)] = []
        for executor in TestDatabases.executors {
            guard let store = try await Self.store(executor) else { continue }
            try await body(store)
            dumps.append((executor, try await store.dump()))
            try await store.close()
        }
        guard sameDump, let (first, expected) = dumps.first else { return }
        for (executor, dump) in dumps.dropFirst() where dump != expected {
            let difference = zip(expected.split(separator: "\n"), dump.split(separator: "\n")).first { $0 != $1 }
            Issue.record("\(executor) left other rows than \(first): \(difference.map { "\($0.0)\n≠ \($0.1)" } ?? "")")
        }
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
            eventType: "transaction_posted", detail: ["transaction_id": .string(transactionID)])
    }

    static func notification(_ uuid: String, _ transactionID: String, original: String) -> EvidenceWrite {
        EvidenceWrite(
            project: Self.project, bundleID: "com.example", appUserID: nil, kind: "notification_v2",
            rawBody: "signed-\(uuid)",
            evidence: evidence(transactionID, original: original), originalTransactionIDs: [original],
            cause: .notification,
            notificationID: uuid, eventType: "DID_RENEW")
    }

    @Test("migrations are versioned and idempotent")
    func migrations() async throws {
        try await onEveryExecutor { store async throws in
            #expect(try await store.migrate() == SQLStore.schemaVersion)
            #expect(try await store.migrate() == SQLStore.schemaVersion)
            #expect(try await store.appliedSchemaVersion() == SQLStore.schemaVersion)
        }
    }

    @Test("a client write stores evidence, state and an event together")
    func clientWrite() async throws {
        try await onEveryExecutor { store async throws in
            let outcome = try await store.apply(
                Self.clientWrite("alice", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(outcome == .applied(appUserID: "alice"))
            let subscriber = try #require(try await store.subscriber("alice", in: StoreConformanceTests.project))
            #expect(subscriber.evidence.transactions.map(\.transactionID) == ["t1"])
            let events = try await store.events("alice", in: StoreConformanceTests.project, limit: 100)
            #expect(events.map(\.type) == ["transaction_posted"])
            #expect(events[0].cause == .client && events[0].evidenceID != nil)
            #expect(try await store.subscriber("nobody", in: StoreConformanceTests.project) == nil)
        }
    }

    @Test("a duplicate notification is acknowledged and applied once")
    func duplicates() async throws {
        try await onEveryExecutor { store async throws in
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
        }
    }

    @Test(
        "a notification for an unknown subscription waits, then applies when the transaction arrives")
    func pendingNotifications() async throws {
        try await onEveryExecutor { store async throws in
            #expect(
                try await store.apply(
                    Self.notification("n-early", "t2", original: "o9"), policy: .transfer, now: Self.now)
                    == .pending)
            #expect(
                try await store.apply(
                    Self.notification("n-early", "t2", original: "o9"), policy: .transfer, now: Self.now)
                    == .duplicate)
            _ = try await store.apply(Self.clientWrite("carol", "t1", original: "o9"), policy: .transfer, now: Self.now)
            let subscriber = try #require(try await store.subscriber("carol", in: StoreConformanceTests.project))
            #expect(Set(subscriber.evidence.transactions.map(\.transactionID)) == ["t1", "t2"])
            #expect(
                try await store.events("carol", in: StoreConformanceTests.project, limit: 100).contains {
                    $0.detail["applied"] == "late"
                })
        }
    }

    @Test(
        "transfer policy: transfer moves the subscription; keep-first refuses, both recorded")
    func transfers() async throws {
        try await onEveryExecutor { store async throws in
            _ = try await store.apply(Self.clientWrite("dan", "t1", original: "o1"), policy: .transfer, now: Self.now)
            _ = try await store.apply(Self.clientWrite("eve", "t1", original: "o1"), policy: .keepFirst, now: Self.now)
            #expect(
                try await store.subscriber("eve", in: StoreConformanceTests.project)?.evidence.transactions.isEmpty
                    == true)
            #expect(
                try await store.events("eve", in: StoreConformanceTests.project, limit: 10).contains {
                    $0.type == "transfer_refused" && $0.detail["owner"] == "dan"
                })
            _ = try await store.apply(Self.clientWrite("eve", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(
                try await store.subscriber("eve", in: StoreConformanceTests.project)?.evidence.transactions.map(
                    \.transactionID) == ["t1"])
            #expect(
                try await store.subscriber("dan", in: StoreConformanceTests.project)?.evidence.transactions.isEmpty
                    == true)
            let out = try await store.events("dan", in: StoreConformanceTests.project, limit: 10).first {
                $0.type == "subscription_transferred_out"
            }
            #expect(out?.detail["from"] == "dan" && out?.detail["to"] == "eve")
        }
    }

    @Test("aliases merge identities")
    func aliases() async throws {
        try await onEveryExecutor { store async throws in
            _ = try await store.apply(
                Self.clientWrite("anon-1", "t1", original: "o1"), policy: .transfer, now: Self.now)
            _ = try await store.apply(Self.clientWrite("fred", "t5", original: "o5"), policy: .transfer, now: Self.now)
            try await store.alias(
                "anon-1", to: "fred", in: StoreConformanceTests.project, bundleID: "com.example", now: Self.now)
            let fred = try #require(try await store.subscriber("anon-1", in: StoreConformanceTests.project))
            #expect(fred.appUserID == "fred" && fred.aliases == ["anon-1"])
            #expect(Set(fred.evidence.transactions.map(\.transactionID)) == ["t1", "t5"])
            // Later evidence for the alias lands on the merged subscriber.
            _ = try await store.apply(
                Self.clientWrite("anon-1", "t6", original: "o1"), policy: .transfer, now: Self.now)
            #expect(
                try await store.subscriber("fred", in: StoreConformanceTests.project)?.evidence.transactions.count == 3)
        }
    }

    @Test("an alias merge keeps the earlier first sighting, whichever side it was on")
    func firstSeenAcrossAliases() async throws {
        try await onEveryExecutor { store async throws in
            let early = Self.now, late = Self.now.addingTimeInterval(86_400)
            _ = try await store.apply(Self.clientWrite("anon-7", "t1", original: "o1"), policy: .transfer, now: early)
            _ = try await store.apply(Self.clientWrite("gus", "t2", original: "o2"), policy: .transfer, now: late)
            try await store.alias("anon-7", to: "gus", in: Self.project, bundleID: "com.example", now: late)
            #expect(try await store.subscriber("gus", in: Self.project)?.createdAt == early)
            // Merged into a subscriber never stored before: still the alias's first sighting.
            _ = try await store.apply(Self.clientWrite("anon-8", "t3", original: "o3"), policy: .transfer, now: early)
            try await store.alias("anon-8", to: "hanna", in: Self.project, bundleID: "com.example", now: late)
            #expect(try await store.subscriber("hanna", in: Self.project)?.createdAt == early)
        }
    }

    @Test("API keys are found by hash; replacing the set deletes the keys it no longer holds")
    func apiKeys() async throws {
        try await onEveryExecutor { store async throws in
            try await store.keys.replaceAPIKeys([
                "abc": APIKeyRecord(kind: .public, bundleID: "com.example"),
                "old": APIKeyRecord(kind: .secret, bundleID: "com.example"),
            ])
            #expect(try await store.keys.apiKey(hash: "abc") == APIKeyRecord(kind: .public, bundleID: "com.example"))
            #expect(try await store.keys.apiKey(hash: "old") == APIKeyRecord(kind: .secret, bundleID: "com.example"))
            #expect(try await store.keys.apiKey(hash: "nope") == nil)
            // A rotation: "old" leaves the configuration, "new" joins it, "abc" changes app.
            try await store.keys.replaceAPIKeys([
                "abc": APIKeyRecord(kind: .public, bundleID: "com.example.other"),
                "new": APIKeyRecord(kind: .secret, bundleID: "com.example"),
            ])
            #expect(try await store.keys.apiKey(hash: "old") == nil)
            #expect(try await store.keys.apiKey(hash: "new") == APIKeyRecord(kind: .secret, bundleID: "com.example"))
            #expect(try await store.keys.apiKey(hash: "abc")?.bundleID == "com.example.other")
        }
    }

    @Test("a transaction that fails midway leaves nothing behind")
    func rollback() async throws {
        try await onEveryExecutor { store async throws in
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
        }
    }

    @Test("a notification about no subscription is recorded, once")
    func recorded() async throws {
        try await onEveryExecutor { store async throws in
            var test = Self.notification("n-test", "x", original: "x")
            test.originalTransactionIDs = []
            test.evidence = EvidenceSet()
            #expect(try await store.apply(test, policy: .transfer, now: Self.now) == .recorded)
            #expect(try await store.apply(test, policy: .transfer, now: Self.now) == .duplicate)
        }
    }

    @Test("notifications follow a transferred subscription, and one about two owners' subscriptions reaches both")
    func notificationsAfterTransfer() async throws {
        try await onEveryExecutor { store async throws in
            _ = try await store.apply(Self.clientWrite("hal", "t1", original: "o1"), policy: .transfer, now: Self.now)
            _ = try await store.apply(Self.clientWrite("ida", "t2", original: "o2"), policy: .transfer, now: Self.now)
            _ = try await store.apply(Self.clientWrite("ida", "t1", original: "o1"), policy: .transfer, now: Self.now)
            #expect(
                try await store.apply(Self.notification("n-1", "t3", original: "o1"), policy: .transfer, now: Self.now)
                    == .applied(appUserID: "ida"))
            // A notification naming subscriptions of two subscribers (hal buys o3; o1 is ida's now).
            _ = try await store.apply(Self.clientWrite("hal", "t4", original: "o3"), policy: .transfer, now: Self.now)
            var both = Self.notification("n-2", "t5", original: "o3")
            both.originalTransactionIDs = ["o3", "o1"]
            both.evidence.formUnion(Self.evidence("t6", original: "o1"))
            #expect(try await store.apply(both, policy: .keepFirst, now: Self.now) == .applied(appUserID: "hal"))
            let hal = try #require(try await store.subscriber("hal", in: Self.project))
            let ida = try #require(try await store.subscriber("ida", in: Self.project))
            #expect(Set(hal.evidence.transactions.map(\.transactionID)) == ["t4", "t5"])
            #expect(Set(ida.evidence.transactions.map(\.transactionID)) == ["t1", "t2", "t3", "t6"])
        }
    }

    @Test("several parked notifications apply, oldest first, when their subscription is bought")
    func severalParked() async throws {
        try await onEveryExecutor { store async throws in
            for (index, id) in ["n-a", "n-b", "n-c"].enumerated() {
                #expect(
                    try await store.apply(
                        Self.notification(id, "r\(index)", original: "o7"), policy: .transfer,
                        now: Self.now.addingTimeInterval(Double(index))) == .pending)
            }
            _ = try await store.apply(
                Self.notification("n-other", "r9", original: "o8"), policy: .transfer, now: Self.now)
            _ = try await store.apply(Self.clientWrite("jo", "t0", original: "o7"), policy: .transfer, now: Self.now)
            let late = try await store.events("jo", in: Self.project, limit: 10).filter {
                $0.detail["applied"] == "late"
            }
            #expect(late.map(\.causeID) == ["n-a", "n-b", "n-c"])
            let jo = try #require(try await store.subscriber("jo", in: Self.project))
            #expect(Set(jo.evidence.transactions.map(\.transactionID)) == ["t0", "r0", "r1", "r2"])
        }
    }

    @Test("concurrent writes all commit")
    func concurrency() async throws {
        try await onEveryExecutor(sameDump: false) { store async throws in
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
        }
    }
}
