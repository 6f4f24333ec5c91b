import Foundation
import Logging
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The server's audit: after its first wait, rounds check a sample of each project's customers against their
/// evidence and log an error naming the project, the customer and the repair when one differs; a project whose
/// rollups all match logs nothing.
@Suite struct RollupAuditorTests {
    static let project = try! ProjectScope("com.example.audit")

    /// Writes one customer with a month's subscription.
    static func subscribe(_ store: SQLStore, _ user: String) async throws {
        var transaction = Transaction(
            transactionID: "t-\(user)", originalTransactionID: "o-\(user)", productID: "monthly", source: .signedData)
        transaction.kind = .autoRenewable
        transaction.purchaseDate = Date().addingTimeInterval(-86_400)
        transaction.expiresAt = Date().addingTimeInterval(29 * 86_400)
        transaction.price = 9_990
        transaction.currency = "USD"
        transaction.environment = .production
        var evidence = EvidenceSet()
        evidence.insert(transaction)
        _ = try await store.apply(
            EvidenceWrite(
                project: project, bundleID: "com.example.audit", appUserID: user, kind: "signed_transaction",
                rawBody: "jws-\(user)", evidence: evidence, originalTransactionIDs: ["o-\(user)"], cause: .client,
                eventType: "transaction_posted"),
            policy: .transfer, now: Date())
    }

    @Test("a drifted customer is logged as an error naming it and `storekeeper metrics rebuild`; matching ones are not")
    func logsDrift() async throws {
        for backend in TestDatabases.backends {
            guard let store = try await TestDatabases.makeStore(backend, rollupRules: ProceedsRules()) else {
                if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
                continue
            }
            _ = try await store.rebuildRollups(in: Self.project)  // marked whole, as the server's builder does
            for user in ["ana", "bo"] { try await Self.subscribe(store, user) }
            func auditor(_ log: CapturedLog) -> RollupAuditor {
                RollupAuditor(
                    store: store, projects: [Self.project], interval: .milliseconds(20), sample: 10,
                    logger: log.logger())
            }
            // A round over matching customers says nothing.
            let quiet = CapturedLog()
            try await auditor(quiet).audit(Self.project)
            #expect(quiet.lines.isEmpty, "\(backend): \(quiet.lines)")

            try await store.database.withTransaction { tx in
                try await tx.query(
                    "UPDATE metric_customers SET fingerprint = fingerprint + 1 WHERE app_user_id = ?",
                    [.text(Self.project.key("bo"))])
            }
            // The running service's rounds find it (however busy the machine, within 20 s).
            let log = CapturedLog()
            let running = Task { try await auditor(log).run() }
            let deadline = ContinuousClock.now + .seconds(20)
            while log.lines.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            running.cancel()
            _ = await running.result
            let lines = log.lines
            try await store.close()
            let line = try #require(lines.first, "\(backend)")
            #expect(line.message.contains("storekeeper metrics rebuild"), "\(backend)")
            #expect(line.metadata["project"] == "com.example.audit", "\(backend)")
            #expect(line.metadata["customers"] == "bo" && line.metadata["differing"] == "1", "\(backend)")
        }
    }
}
