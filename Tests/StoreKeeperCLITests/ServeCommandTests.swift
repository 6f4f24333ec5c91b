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
        {
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
