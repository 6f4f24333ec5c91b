import AppStoreSigning
import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// One write may name any number of original transactions: locks and lookups have no statement-size cliff
/// (PostgreSQL refuses a target list over 1,664 entries; SQLite binds at most 32,766 parameters).
@Suite struct LargeReceiptTests {
    /// A debug build writing 5,000 originals takes seconds alone and can take minutes beside the whole suite on
    /// two cores; this spec is about correctness, so its calls wait that long.
    static let patience: Duration = .seconds(240)

    @Test(
        "a receipt with 5,000 consumable purchases is stored, each purchase its own subscription",
        arguments: TestDatabases.backends)
    func fiveThousandOriginals(_ backend: String) async throws {
        try await TenantServers.with(backend, receiptValidation: "local", maximumBodyBytes: 8 << 20) { servers in
            let payload = SyntheticReceipt.consumables(
                count: 5_000, bundleID: TenantServers.appA, productID: "coins.100",
                start: Date(timeIntervalSince1970: 1_766_000_000))
            let receipt = Data(try SimulatorHarness.sharedPKI.receipts.sign(payload)).base64EncodedString()
            let (status, answer) = try await servers.client.call(
                .POST, "/v1/receipts", key: TenantServers.publicA,
                body: servers.client.json(["app_user_id": "collector", "receipt": receipt]), timeout: Self.patience)
            #expect(status == 200, "\(answer["error"] ?? "")")
            let purchases = (answer["subscriber"] as? [String: Any])?["non_subscriptions"] as? [Any]
            #expect(purchases?.count == 5_000)
            let record = try #require(try await servers.store.subscriber("collector", in: TenantServers.projectA))
            #expect(Set(record.evidence.transactions.map(\.originalTransactionID)).count == 5_000)
            // The same receipt again for another user moves all 5,000 (two events each), still in one write.
            let (again, _) = try await servers.client.call(
                .POST, "/v1/receipts", key: TenantServers.publicA,
                body: servers.client.json(["app_user_id": "heir", "receipt": receipt]), timeout: Self.patience)
            #expect(again == 200)
            #expect(
                try await servers.store.subscriber("heir", in: TenantServers.projectA)?.evidence.transactions.count
                    == 5_000)
        }
    }
}
