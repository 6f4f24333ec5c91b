import AppStoreModels
import Foundation
import StoreKeeperAPI
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperServer

/// `GET /v1/subscribers` over real HTTP: the project's customers in id order with where each stands now, filtered
/// by status, product, entitlement and environment, page after page by cursor, or all at once as CSV.
@Suite struct SubscriberListEndToEndTests {
    typealias E2E = ServerEndToEndTests

    @Test(
        "filters, pages and CSV over four customers: two paying, one refunded, one who bought coins",
        arguments: TestDatabases.backends)
    func list(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            #expect(try await client.buy(h, "premium.monthly", customer: "s1").status == 200)
            #expect(try await client.buy(h, "premium.annual", customer: "s2").status == 200)
            let refunded = try await client.buy(h, "premium.monthly", customer: "s3")
            try await h.simulator.refund(transactionID: refunded.transaction.transactionID, reason: 1)
            let token = try #require(
                try await h.simulator.transactionInfo(
                    transactionID: refunded.transaction.transactionID, bundleID: E2E.bundleID
                ).signedTransactionInfo)
            #expect(
                try await client.call(
                    .POST, "/v1/transactions",
                    body: client.json(["app_user_id": "s3", "signed_transaction": token])
                ).0 == 200)
            #expect(try await client.buy(h, "coins.100", customer: "s4").status == 200)

            let decoder = APICoding.decoder()
            func page(_ query: [(String, String)]) async throws -> SubscriberListResponse {
                let (status, _, body) = try await MetricsEndToEndTests.raw(
                    client.base, APIPath.subscribers(query: query), key: E2E.secretKey)
                #expect(status == 200, "\(query): \(body)")
                return try decoder.decode(SubscriberListResponse.self, from: Data(body.utf8))
            }
            let all = try await page([])
            #expect(all.nextCursor == nil)
            #expect(all.subscribers.map(\.appUserID) == ["s1", "s2", "s3", "s4"])
            #expect(all.subscribers.map(\.status) == ["active", "active", "revoked", "none"])
            #expect(all.subscribers[1].productID == "premium.annual" && all.subscribers[1].entitlements == ["pro"])
            #expect(all.subscribers[0].environment == "Sandbox" && all.subscribers[0].expiresAt != nil)
            #expect(all.subscribers[3].productID == nil && all.subscribers[3].entitlements.isEmpty)

            for (query, expected) in [
                ([("status", "active")], ["s1", "s2"]), ([("status", "revoked")], ["s3"]),
                ([("status", "none")], ["s4"]), ([("product_id", "premium.annual")], ["s2"]),
                ([("entitlement", "pro")], ["s1", "s2"]), ([("environment", "Sandbox")], ["s1", "s2", "s3"]),
                ([("environment", "Production")], []),
                ([("status", "active"), ("product_id", "premium.monthly")], ["s1"]),
            ] {
                #expect(try await page(query).subscribers.map(\.appUserID) == expected, "\(query)")
            }

            // One at a time, by cursor, to the end.
            var seen: [String] = []
            var cursor: String?
            for _ in 0..<10 {
                let next = try await page([("limit", "1")] + (cursor.map { [("cursor", $0)] } ?? []))
                seen += next.subscribers.map(\.appUserID)
                cursor = next.nextCursor
                if cursor == nil { break }
            }
            #expect(seen == ["s1", "s2", "s3", "s4"] && cursor == nil)

            let (status, type, csv) = try await MetricsEndToEndTests.raw(
                client.base, APIPath.subscribers(query: [("format", "csv"), ("status", "active")]), key: E2E.secretKey)
            #expect(status == 200 && type.hasPrefix("text/csv"))
            let lines = csv.split(separator: "\n")
            #expect(
                lines.first.map(String.init)
                    == "app_user_id,status,product_id,entitlements,expires_at,storefront,environment,"
                    + "attribute_source")
            #expect(lines.count == 3 && lines[1].hasPrefix("\"s1\",active,\"premium.monthly\",\"pro\","), "\(csv)")
        }
    }

    @Test("secret key only; a status, environment, limit, cursor or format that is not one is refused naming it")
    func refusals() async throws {
        try await E2E.withServers("sqlite") { _, client, _, _ in
            #expect(try await client.call(.GET, APIPath.subscribers(), key: nil).0 == 401)
            #expect(try await client.call(.GET, APIPath.subscribers(), key: E2E.publicKey).0 == 403)
            for (query, named) in [
                ([("status", "paying")], "status=\"paying\""), ([("environment", "prod")], "environment=\"prod\""),
                ([("limit", "0")], "limit=\"0\""), ([("limit", "x")], "limit=\"x\""),
                ([("cursor", String(repeating: "c", count: 300))], "cursor"), ([("format", "xml")], "format=\"xml\""),
            ] {
                let (status, body) = try await client.call(.GET, APIPath.subscribers(query: query), key: E2E.secretKey)
                let message = ((body["error"] as? [String: Any])?["message"] as? String) ?? "\(body)"
                #expect(status == 400 && message.contains(named), "\(query): \(status) \(message)")
            }
        }
    }

    @Test("a CSV field a spreadsheet would run as a formula is written as text")
    func csvFormulaText() {
        #expect(CSVField.quoted("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSVField.quoted("alice") == "\"alice\"")
    }
}
