import AppStoreSigning
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreKeeperAPI
import StoreKeeperBench
import StoreKeeperCLI

/// What a load run sends: the subscribers it seeds and the notifications it signs for them.
extension LoadCommand {
    /// Buys a subscription for each seeded user in the simulator and posts its signed transaction to StoreKeeper.
    func seed(_ client: HTTPClient) async throws -> [String] {
        let token =
            try await call(client, "GET", "/simulator/v1/apps/\(Self.bundleID)/api-token", nil)["token"] as? String
            ?? ""
        // Seeding asks Get Transaction Info once per subscriber: more than Apple's sandbox budget (18,000 an hour)
        // at size, and not what is measured, so the simulator's budget for it is lifted for this run.
        _ = try await call(
            client, "PUT", "/simulator/v1/rate-limits",
            ["endpoint": "Get Transaction Info", "requests": 1_000_000_000, "seconds": 3_600])
        var originals = [String](repeating: "", count: subscribers)
        let started = Date()
        var done = 0
        try await BoundedConcurrency.forEach(subscribers, width: concurrency) { index -> (Int, String) in
            let purchase = try await call(
                client, "POST", "/simulator/v1/purchases",
                ["bundleID": Self.bundleID, "productID": Self.productID, "customerID": "load-\(index)"])
            let id = purchase["transactionId"] as? String ?? ""
            let signed =
                try await call(client, "GET", "/inApps/v1/transactions/\(id)", nil, bearer: token)[
                    "signedTransactionInfo"] as? String ?? ""
            _ = try await call(
                client, "POST", APIPath.transactions, ["app_user_id": "load-\(index)", "signed_transaction": signed],
                bearer: Self.publicKey)
            return (index, id)
        } collect: { index, id in
            originals[index] = id
            done += 1
            if done % 1000 == 0 || done == subscribers {
                FileHandleOutput.standardError(
                    String(
                        format: "seeded %d/%d subscribers (%.0f s)", done, subscribers,
                        Date().timeIntervalSince(started)))
            }
        }
        return originals
    }

    /// Signs V2 DID_RENEW notifications for seeded subscriptions with the simulator's keys (new UUIDs and
    /// transactions, so each one is applied, not deduplicated), on every core.
    func makeNotifications(originals: [String], offset: Int = 0) async throws -> [Data] {
        let keys = try SimulatorPKI.loadOrCreate(in: URL(fileURLWithPath: pki))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let total = notifications
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        @Sendable func sign(_ index: Int) throws -> Data {
            let original = originals[(offset + index) % originals.count]
            let transaction: [String: Any] = [
                "transactionId": "9\(1_000_000_000_000 + offset + index)", "originalTransactionId": original,
                "productId": Self.productID,
                "bundleId": Self.bundleID, "purchaseDate": now, "originalPurchaseDate": now,
                // A later batch renews to a later end, so a subscriber renewed before is renewed again.
                "expiresDate": now + 3_600_000 * Int64(1 + offset / max(1, total)),
                "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": now,
                "environment": "Sandbox", "transactionReason": "RENEWAL",
            ]
            let signedTransaction = try JWSSigner.sign(
                Array(try JSONSerialization.data(withJSONObject: transaction)), chain: keys.signedData.chainDER,
                key: keys.signedData.leafKey)
            let payload: [String: Any] = [
                "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
                "signedDate": now,
                "data": [
                    "bundleId": Self.bundleID, "environment": "Sandbox", "signedTransactionInfo": signedTransaction,
                    "status": 1,
                ],
            ]
            let signed = try JWSSigner.sign(
                Array(try JSONSerialization.data(withJSONObject: payload)), chain: keys.signedData.chainDER,
                key: keys.signedData.leafKey)
            return try JSONSerialization.data(withJSONObject: ["signedPayload": signed])
        }
        var bodies = [Data](repeating: Data(), count: total)
        try await withThrowingTaskGroup(of: [(Int, Data)].self) { group in
            for worker in 0..<workers {
                group.addTask { try stride(from: worker, to: total, by: workers).map { ($0, try sign($0)) } }
            }
            for try await chunk in group {
                for (index, body) in chunk { bodies[index] = body }
            }
        }
        return bodies
    }

    /// Signs Retention Messaging real-time requests (Apple's `RealtimeRequestBody`) about seeded subscriptions with
    /// the simulator's keys, one new request identifier each, for the demo app (its Apple id 1234567890).
    func makeRealtimeRequests(originals: [String], count: Int) throws -> [Data] {
        let keys = try SimulatorPKI.loadOrCreate(in: URL(fileURLWithPath: pki))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return try (0..<count).map { index in
            let payload: [String: Any] = [
                "originalTransactionId": originals[index % originals.count], "appAppleId": 1_234_567_890,
                "productId": Self.productID, "userLocale": "en-US", "requestIdentifier": UUID().uuidString.lowercased(),
                "signedDate": now, "environment": "Sandbox",
            ]
            let signed = try JWSSigner.sign(
                Array(try JSONSerialization.data(withJSONObject: payload)), chain: keys.signedData.chainDER,
                key: keys.signedData.leafKey)
            return try JSONSerialization.data(withJSONObject: ["signedPayload": signed])
        }
    }
}
