import Foundation
import Logging
import StoreKeeperStorage
import SubscriptionEngine
import SubscriptionMetrics
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// The server's audit: after its first wait, rounds check a sample of each project's customers against their
/// evidence, and the project's summed rows against all its customers, and log an error naming the project (the
/// customer, when one differs) and the repair; a project whose rollups all match logs nothing.
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

            // A row edited by hand, every customer matching: the rows' line alone, counting both customers.
            let edit = "UPDATE metric_rollups SET value = value + ? WHERE metric = 'revenue' AND value <> 0"
            try await store.database.withTransaction { tx in try await tx.query(edit, [.integer(1)]) }
            let edited = CapturedLog()
            try await auditor(edited).audit(Self.project)
            #expect(edited.lines.count == 1, "\(backend): \(edited.lines)")
            let rowsLine = try #require(edited.lines.first, "\(backend)")
            #expect(
                rowsLine.message.contains("rows differ") && rowsLine.message.contains("storekeeper metrics rebuild"))
            #expect(rowsLine.metadata["project"] == "com.example.audit" && rowsLine.metadata["counted"] == "2")
            try await store.database.withTransaction { tx in try await tx.query(edit, [.integer(-1)]) }

            try await store.database.withTransaction { tx in
                try await tx.query(
                    "UPDATE metric_customers SET fingerprint = fingerprint + 1 WHERE app_user_id = ?",
                    [.text(Self.project.key("bo"))])
            }
            // The running service's rounds find it (however busy the machine, within 20 s): the customer is named,
            // and the rows no longer sum to the customers' fingerprints either.
            let log = CapturedLog()
            let running = Task { try await auditor(log).run() }
            let deadline = ContinuousClock.now + .seconds(20)
            while log.lines.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            running.cancel()
            _ = await running.result
            let lines = log.lines
            try await store.close()
            let line = try #require(lines.first { $0.metadata["differing"] != nil }, "\(backend): \(lines)")
            #expect(line.message.contains("storekeeper metrics rebuild"), "\(backend)")
            #expect(line.metadata["project"] == "com.example.audit", "\(backend)")
            #expect(line.metadata["customers"] == "bo" && line.metadata["differing"] == "1", "\(backend)")
            #expect(lines.contains { $0.message.contains("rows differ") }, "\(backend): \(lines)")
        }
    }
}
