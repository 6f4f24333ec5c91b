import AppStoreSimulator
import Foundation
import StoreKeeperAPI
import StoreKeeperServer
import TestDatabaseSupport
import TestSupport
import Testing

/// `POST /v1/subscribers/{app_user_id}/subscriptions/{original_transaction_id}/app-account-token`: support moves a
/// purchase to another account of the app, over HTTP on both databases with the simulator as Apple. Apple's
/// transactions carry the new token, StoreKeeper stores Apple's signed view in the same call (the customer's
/// evidence carries it at once), and bad input or another customer's purchase changes nothing.
@Suite struct SupportAppAccountTokensEndToEndTests {
    typealias E2E = ServerEndToEndTests

    static func path(_ user: String, _ original: String) -> String {
        APIEndpoint.postAppAccountToken.path(user, original)
    }

    static func code(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }

    static func body(_ token: String) -> Data { Data(#"{"app_account_token": "\#(token)"}"#.utf8) }

    @Test(
        "a subscription's and a one-time purchase's token are set by Apple and stored at once; the next change names it",
        arguments: TestDatabases.backends)
    func setsTheToken(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let (subscription, _) = try await client.buy(h, "premium.monthly", customer: "mover-1")
            let (coins, _) = try await client.buy(h, "coins.100", customer: "mover-1")
            for (purchase, token) in [
                (subscription, "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
                (coins, "0b5f7e1c-2d3a-4b6c-8d9e-0f1a2b3c4d5e"),
            ] {
                let (status, answer) = try await client.call(
                    .POST, Self.path("mover-1", purchase.originalTransactionID), key: E2E.secretKey,
                    body: Self.body(token))
                #expect(status == 200, "\(answer)")
                #expect(answer["app_account_token"] as? String == token.lowercased())
                #expect(answer["original_transaction_id"] as? String == purchase.originalTransactionID)
                let apple = await h.simulator.transaction(purchase.transactionID)?.appAccountToken
                #expect(apple == token.lowercased(), "Apple's transaction carries it")
                let (_, _, export) = try await MetricsEndToEndTests.raw(
                    client.base, APIEndpoint.getExport.path("mover-1"), key: E2E.secretKey)
                #expect(export.contains(token.lowercased()), "the customer's stored evidence carries it")
            }
            let (again, answer) = try await client.call(
                .POST, Self.path("mover-1", subscription.originalTransactionID), key: E2E.secretKey,
                body: Self.body("9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"))
            #expect(
                again == 200
                    && answer["previous_app_account_token"] as? String == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            let (_, events) = try await client.call(.GET, "/v1/subscribers/mover-1/events", key: E2E.secretKey)
            let changes = (events["events"] as? [[String: Any]] ?? []).filter {
                $0["type"] as? String == "app_account_token_set"
            }
            #expect(changes.count == 3 && changes.allSatisfy { $0["cause"] as? String == "support" }, "\(events)")
        }
    }

    @Test(
        "a token that is not a UUID, none, another customer's purchase and the public key are refused; nothing changes",
        arguments: TestDatabases.backends)
    func refusals(_ backend: String) async throws {
        try await E2E.withServers(backend) { h, client, _, _ in
            let (mine, _) = try await client.buy(h, "premium.monthly", customer: "holder-1")
            let (theirs, _) = try await client.buy(h, "premium.monthly", customer: "holder-2")
            for (body, code, named) in [
                (Self.body("not-a-uuid"), "invalid_app_account_token", "not-a-uuid"),
                (Data("{}".utf8), "missing_field", "app_account_token"),
                (Data(#"{"app_account_token": 7}"#.utf8), "invalid_field", "app_account_token"),
            ] {
                let (status, answer) = try await client.call(
                    .POST, Self.path("holder-1", mine.originalTransactionID), key: E2E.secretKey, body: body)
                #expect(status == 400 && Self.code(answer) == code, "\(answer)")
                #expect(((answer["error"] as? [String: Any])?["message"] as? String ?? "").contains(named))
            }
            let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
            let (other, answer) = try await client.call(
                .POST, Self.path("holder-1", theirs.originalTransactionID), key: E2E.secretKey, body: Self.body(token))
            #expect(other == 404 && Self.code(answer) == "transaction_not_found", "\(answer)")
            let (publicKey, _) = try await client.call(
                .POST, Self.path("holder-1", mine.originalTransactionID), body: Self.body(token))
            #expect(publicKey == 403)
            #expect(await h.simulator.transaction(mine.transactionID)?.appAccountToken == nil)
            #expect(await h.simulator.transaction(theirs.transactionID)?.appAccountToken == nil)
            let (_, _, export) = try await MetricsEndToEndTests.raw(
                client.base, APIEndpoint.getExport.path("holder-1"), key: E2E.secretKey)
            #expect(!export.contains(token), "nothing stored")
        }
    }
}
