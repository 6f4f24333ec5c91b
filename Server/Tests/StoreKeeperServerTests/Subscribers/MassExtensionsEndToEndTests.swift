import AppStoreModels
import AppStoreSimulator
import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `POST /v1/extensions` and `GET /v1/extensions/{id}`: support extends every active subscriber of a product
/// through Apple's mass extension, over HTTP on both databases with the simulator as Apple. The request is queued
/// (202), its status is Apple's, each subscription Apple extends arrives as RENEWAL_EXTENDED and moves the
/// customer's renewal date; bad input is named and keeps nothing.
@Suite struct MassExtensionsEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static func message(_ body: [String: Any]) -> String {
        (body["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    @Test(
        "every active subscriber of the product is extended by Apple; the status is Apple's; the notifications move each renewal date",
        arguments: TestDatabases.backends)
    func extendsAProduct(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, delivery in
            for customer in ["mass-a", "mass-b"] { try await client.buy(h, "premium.monthly", customer: customer) }
            try await client.buy(h, "premium.annual", customer: "mass-annual")
            await delivery.deliverDue()
            var before: [String: String] = [:]
            for customer in ["mass-a", "mass-b", "mass-annual"] {
                before[customer] = try await client.subscription(customer)?["expires_at"] as? String
            }

            // A minute later (Apple signs the extension after the purchase; both well within the period).
            h.clock.advance(by: 60)
            let (status, queued) = try await client.call(
                .POST, APIEndpoint.postMassExtension.path, key: E2E.secretKey,
                body: client.json(["product_id": "premium.monthly", "days": 5, "reason": "service_issue"]))
            #expect(status == 202, "\(queued)")
            let id = try #require(queued["id"] as? String)
            #expect(queued["complete"] as? Bool == false && queued["days"] as? Int == 5)

            let (read, answer) = try await client.call(
                .GET, APIEndpoint.getMassExtension.path(id), key: E2E.secretKey)
            #expect(read == 200 && answer["complete"] as? Bool == true, "\(answer)")
            #expect(answer["succeeded_count"] as? Int == 2 && answer["failed_count"] as? Int == 0, "\(answer)")
            #expect(
                answer["product_id"] as? String == "premium.monthly" && answer["reason"] as? String == "service_issue")

            // Apple's RENEWAL_EXTENDED for each, delivered and applied (the server acknowledges after commit).
            await delivery.deliverDue()
            for customer in ["mass-a", "mass-b"] {
                let after = try await client.subscription(customer)?["expires_at"] as? String
                let dates = [before[customer] ?? nil, after].compactMap { $0 }.compactMap(AppleDateFormat.parse)
                #expect(dates.count == 2 && dates[1] > dates[0], "\(customer): \(dates)")
            }
            #expect(
                try await client.subscription("mass-annual")?["expires_at"] as? String == before["mass-annual"],
                "another product's subscriber is untouched")
        }
    }

    @Test(
        "an unknown or one-time product, bad days, reason or storefronts, an unknown id: named, and nothing kept",
        arguments: TestDatabases.backends)
    func refusals(_ backend: String) async throws {
        try await E2E.withServers(backend) { _, client, store, _ in
            let dump = try await store.dump()
            for (fields, code, named) in [
                (["product_id": "premium.weekly", "days": 3, "reason": "other"], "unknown_product", "premium.weekly"),
                (["product_id": "coins.100", "days": 3, "reason": "other"], "unknown_product", "coins.100"),
                (["product_id": "premium.monthly", "days": 91, "reason": "other"], "invalid_extension", "days 91"),
                (["product_id": "premium.monthly", "days": 3, "reason": "sorry"], "invalid_extension", "sorry"),
                (
                    ["product_id": "premium.monthly", "days": 3, "reason": "other", "storefronts": ["usa"]],
                    "invalid_extension", "usa"
                ),
                (["days": 3, "reason": "other"], "missing_field", "product_id"),
            ] as [([String: Any], String, String)] {
                let (status, answer) = try await client.call(
                    .POST, APIEndpoint.postMassExtension.path, key: E2E.secretKey, body: client.json(fields))
                #expect(status == 400 && Self.code(answer) == code, "\(fields): \(answer)")
                #expect(Self.message(answer).contains(named), "\(answer)")
            }
            let (publicKey, _) = try await client.call(
                .POST, APIEndpoint.postMassExtension.path,
                body: client.json(["product_id": "premium.monthly", "days": 3, "reason": "other"]))
            #expect(publicKey == 403)
            let (unknown, answer) = try await client.call(
                .GET, APIEndpoint.getMassExtension.path(UUID().uuidString.lowercased()), key: E2E.secretKey)
            #expect(unknown == 404 && Self.code(answer) == "extension_not_found", "\(answer)")
            #expect(try await store.dump() == dump, "nothing kept")
        }
    }
}
