import Foundation
import TestSupport
import Testing

/// `storekeeper serve` with no configuration: the README's quick start.
@Suite struct ServeCommandTests {
    @Test("no configuration: starts in under 5 s with SQLite in ./data, the simulator and a demo app; the loop works")
    func quickStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = ContinuousClock.now
        let server = try BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/storekeeper.sqlite").path))
        let base = server.baseURL
        func call(_ method: String, _ path: String, key: String? = "pk_demo_storekeeper_public", body: String? = nil)
            throws -> (Int, String)
        { try ServeRestartTests.call(base, method, path, key: key, body: body) }
        let (bought, _) = try call(
            "POST", "/simulator/v1/purchases", key: nil,
            body: #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"newcomer"}"#)
        #expect(bought == 201)
        let (_, receiptJSON) = try call(
            "GET", "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=newcomer", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (posted, document) = try call(
            "POST", "/v1/receipts", body: #"{"app_user_id":"newcomer","receipt":"\#(receipt)"}"#)
        #expect(posted == 200)
        #expect(document.contains(#""identifier":"pro""#))
        let (read, subscriber) = try call("GET", "/v1/subscribers/newcomer")
        #expect(read == 200 && subscriber.contains(#""status":"active""#))
        let (openAPI, spec) = try call("GET", "/openapi.json", key: nil)
        #expect(openAPI == 200 && spec.contains("\"openapi\""))
        let (unauthorized, _) = try call("GET", "/v1/subscribers/newcomer", key: "pk_wrong")
        #expect(unauthorized == 401)
    }
}

/// Demo mode across restarts: the in-process simulator continues its world, so a restart neither loses a
/// customer nor hands a customer's subscription to the next one.
@Suite struct ServeRestartTests {
    /// `curl` against `base`: the status and the body.
    static func call(
        _ base: String, _ method: String, _ path: String, key: String? = "pk_demo_storekeeper_public",
        body: String? = nil
    ) throws -> (Int, String) {
        var arguments = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, base + path]
        if let key { arguments += ["-H", "Authorization: Bearer \(key)"] }
        if let body { arguments += ["-d", body] }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = arguments
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Buys the monthly plan for `customer` in the simulator and posts the receipt; returns the subscriber JSON.
    static func subscribe(_ base: String, _ customer: String) throws -> [String: Any] {
        let (bought, _) = try call(
            base, "POST", "/simulator/v1/purchases", key: nil,
            body:
                #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"\#(customer)"}"#
        )
        #expect(bought == 201)
        let (_, receiptJSON) = try call(
            base, "GET", "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=\(customer)", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (posted, document) = try call(
            base, "POST", "/v1/receipts", body: #"{"app_user_id":"\#(customer)","receipt":"\#(receipt)"}"#)
        #expect(posted == 200, "\(document)")
        return try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
    }

    /// The original transaction ids of a subscriber answer (`{"subscriber": {"subscriptions": […]}}`).
    static func originals(_ answer: [String: Any]) -> [String] {
        let subscriber = answer["subscriber"] as? [String: Any] ?? [:]
        return ((subscriber["subscriptions"] as? [[String: Any]]) ?? []).compactMap {
            $0["original_transaction_id"] as? String
        }
    }

    @Test("restarted twice between purchases: every customer keeps entitlement and history, none is transferred")
    func restarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var subscriptions: [String: [String]] = [:]
        for (run, customer) in ["alice", "bob", "carol"].enumerated() {
            let server = try BackgroundCommand(["serve", "--port", "0"], in: directory)
            defer { server.stop() }
            subscriptions[customer] = Self.originals(try Self.subscribe(server.baseURL, customer))
            #expect(subscriptions[customer]?.count == 1)
            for (earlier, originals) in subscriptions {
                let (read, document) = try Self.call(server.baseURL, "GET", "/v1/subscribers/\(earlier)")
                let subscriber = try #require(
                    try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
                #expect(read == 200 && Self.originals(subscriber) == originals, "run \(run): \(earlier)")
                #expect(document.contains(#""identifier":"pro""#), "run \(run): \(earlier)")
                let (_, events) = try Self.call(
                    server.baseURL, "GET", "/v1/subscribers/\(earlier)/events", key: "sk_demo_storekeeper_secret")
                #expect(events.contains("receipt_posted"), "run \(run): \(events)")
                #expect(!events.contains("transferred"), "run \(run): \(earlier): \(events)")
            }
            server.stop()
            #expect(
                FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("data/simulator/world.json").path))
        }
        #expect(Set(subscriptions.values.flatMap { $0 }).count == 3)
    }
}

/// `storekeeper migrate`.
@Suite struct MigrateCommandTests {
    @Test("migrate creates the SQLite schema and is idempotent")
    func migrate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"dataDirectory": "\#(directory.path)/data"}"#.utf8).write(to: config)
        let first = try CommandRunner.run(["migrate", "--config", config.path])
        #expect(first.status == 0 && first.standardOutput.contains("version 5"))
        #expect(try CommandRunner.run(["migrate", "--config", config.path]).standardOutput.contains("version 5"))
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/storekeeper.sqlite").path))
    }
}
