import Foundation
import StoreKeeperAPI
import TestSupport
import Testing

/// `storekeeper import FILE.csv`: existing customers brought in through a running server, with a summary, and
/// resumable.
@Suite struct ImportCommandTests {
    static let secretKey = "sk_demo_storekeeper_secret"

    /// Buys the monthly plan in the simulator; returns the purchase's original transaction id.
    static func buy(_ client: ServeClient, _ customer: String) async throws -> String {
        let (bought, body) = try await client.call(
            .POST, "/simulator/v1/purchases", key: nil,
            body:
                #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"\#(customer)"}"#
        )
        #expect(bought == 201)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try #require(object["originalTransactionId"] as? String)
    }

    @Test("by original transaction id and by receipt: imported, failures named by line, a rerun skips what is done")
    func backfill() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        let carol = try await Self.buy(client, "carol")
        _ = try await Self.buy(client, "dave")
        let (_, receiptJSON) = try await client.call(
            .GET, "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=dave", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)

        let byTransaction = directory.appendingPathComponent("customers.csv")
        try "app_user_id,original_transaction_id\ncarol,\(carol)\n\nerin,9999999999999\n".write(
            to: byTransaction, atomically: true, encoding: .utf8)
        let arguments = ["import", byTransaction.path, "--server", server.baseURL, "--key", Self.secretKey]
        let first = try await CommandRunner.run(arguments)
        #expect(first.status == 1)
        #expect(first.standardOutput.hasPrefix("imported 1 of 2 rows; 0 already imported; 1 failed"))
        #expect(first.standardOutput.contains(#"line 4 (app_user_id "erin"): transaction_not_found"#))
        #expect(first.standardError.contains("importing: 2/2 rows (100 %)"))
        let (_, carolJSON) = try await client.call(.GET, "/v1/subscribers/carol")
        #expect(carolJSON.contains(#""status":"active""#) && carolJSON.contains(carol))
        let (_, events) = try await client.call(.GET, APIPath.events("carol"), key: Self.secretKey)
        #expect(events.contains(#""cause":"import""#) && events.contains("subscriber_imported"))

        let again = try await CommandRunner.run(arguments)
        #expect(again.standardOutput.hasPrefix("imported 0 of 2 rows; 1 already imported; 1 failed"))

        let byReceipt = directory.appendingPathComponent("receipts.csv")
        try "app_user_id,receipt\n\"dave\",\(receipt)\n".write(to: byReceipt, atomically: true, encoding: .utf8)
        let receipts = try await CommandRunner.run([
            "import", byReceipt.path, "--server", server.baseURL, "--key", Self.secretKey,
        ])
        #expect(receipts.status == 0 && receipts.standardOutput.hasPrefix("imported 1 of 1 rows"))
        let (_, daveJSON) = try await client.call(.GET, "/v1/subscribers/dave")
        #expect(daveJSON.contains(#""identifier":"pro""#))

        let bad = directory.appendingPathComponent("bad.csv")
        try "user,receipt\nx,y\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await CommandRunner.run([
            "import", bad.path, "--server", server.baseURL, "--key", Self.secretKey,
        ])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("line 1 must be the header"))
        let missing = try await CommandRunner.run(
            ["import", byReceipt.path + ".none", "--server", server.baseURL, "--key", Self.secretKey])
        #expect(missing.status == 1 && missing.standardError.contains("no such file"))
    }
}

/// A backfill larger than Apple's budget: the server answers 503 with Apple's `Retry-After`, and the import waits
/// and sends the row again instead of failing it.
@Suite struct ImportRateLimitTests {
    @Test("rows Apple's rate limit turns away wait for its Retry-After and are imported, none lost")
    func waitsForApple() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-rl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A one-second deadline for Apple, so the server gives the wait back instead of waiting itself.
        try #"{"appleDeadlineSeconds": 1}"#.write(
            to: directory.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", "config.json"], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        var rows = ["app_user_id,original_transaction_id"]
        for customer in ["ann", "ben", "cat"] {
            rows.append("\(customer),\(try await ImportCommandTests.buy(client, customer))")
        }
        let (limited, answer) = try await client.call(
            .PUT, "/simulator/v1/rate-limits", key: nil,
            body: #"{"endpoint":"Get All Subscription Statuses","requests":1,"seconds":3}"#)
        #expect(limited == 200, "\(answer)")
        let file = directory.appendingPathComponent("customers.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try await CommandRunner.run([
            "import", file.path, "--server", server.baseURL, "--key", ImportCommandTests.secretKey,
        ])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("imported 3 of 3 rows; 0 already imported; 0 failed"))
        for customer in ["ann", "ben", "cat"] {
            let (_, document) = try await client.call(.GET, "/v1/subscribers/\(customer)")
            #expect(document.contains(#""status":"active""#), "\(customer): \(document)")
        }
        let (refused, why) = try await client.call(
            .PUT, "/simulator/v1/rate-limits", key: nil, body: #"{"endpoint":"Get Everything","requests":1}"#)
        #expect(refused == 400 && why.contains("Get All Subscription Statuses"), "\(why)")
    }
}
