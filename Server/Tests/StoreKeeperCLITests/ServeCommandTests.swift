import Foundation
import StoreKeeperStorage
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
        let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/storekeeper.sqlite").path))
        let base = server.baseURL
        func call(_ method: String, _ path: String, key: String? = "pk_demo_storekeeper_public", body: String? = nil)
            async throws -> (Int, String)
        { try await ServeRestartTests.call(base, method, path, key: key, body: body) }
        let (bought, _) = try await call(
            "POST", "/simulator/v1/purchases", key: nil,
            body: #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"newcomer"}"#)
        #expect(bought == 201)
        let (_, receiptJSON) = try await call(
            "GET", "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=newcomer", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (posted, document) = try await call(
            "POST", "/v1/receipts", body: #"{"app_user_id":"newcomer","receipt":"\#(receipt)"}"#)
        #expect(posted == 200)
        #expect(document.contains(#""identifier":"pro""#))
        let (read, subscriber) = try await call("GET", "/v1/subscribers/newcomer")
        #expect(read == 200 && subscriber.contains(#""status":"active""#))
        let (openAPI, spec) = try await call("GET", "/openapi.json", key: nil)
        #expect(openAPI == 200 && spec.contains("\"openapi\""))
        let (unauthorized, _) = try await call("GET", "/v1/subscribers/newcomer", key: "pk_wrong")
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
    ) async throws -> (Int, String) {
        var arguments = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, base + path]
        if let key { arguments += ["-H", "Authorization: Bearer \(key)"] }
        if let body { arguments += ["-d", body] }
        let command = arguments
        let output = try await Blocking.run {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = command
            let pipe = Pipe()
            curl.standardOutput = pipe
            try curl.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            curl.waitUntilExit()
            return output
        }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Buys the monthly plan for `customer` in the simulator and posts the receipt; returns the subscriber JSON.
    static func subscribe(_ base: String, _ customer: String) async throws -> [String: Any] {
        let (bought, _) = try await call(
            base, "POST", "/simulator/v1/purchases", key: nil,
            body:
                #"{"bundleID":"com.example.storekeeper.demo","productID":"premium.monthly","customerID":"\#(customer)"}"#
        )
        #expect(bought == 201)
        let (_, receiptJSON) = try await call(
            base, "GET", "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=\(customer)", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (posted, document) = try await call(
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
            let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
            defer { server.stop() }
            subscriptions[customer] = Self.originals(try await Self.subscribe(server.baseURL, customer))
            #expect(subscriptions[customer]?.count == 1)
            for (earlier, originals) in subscriptions {
                let (read, document) = try await Self.call(server.baseURL, "GET", "/v1/subscribers/\(earlier)")
                let subscriber = try #require(
                    try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
                #expect(read == 200 && Self.originals(subscriber) == originals, "run \(run): \(earlier)")
                #expect(document.contains(#""identifier":"pro""#), "run \(run): \(earlier)")
                let (_, events) = try await Self.call(
                    server.baseURL, "GET", "/v1/subscribers/\(earlier)/events", key: "sk_demo_storekeeper_secret")
                #expect(events.contains("receipt_posted"), "run \(run): \(events)")
                #expect(!events.contains("transferred"), "run \(run): \(earlier): \(events)")
            }
            await server.stop()
            #expect(
                FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("data/simulator/world.json").path))
        }
        #expect(Set(subscriptions.values.flatMap { $0 }).count == 3)
    }
}

/// The banner's tour runs as printed: its lines, pasted in order into a shell, buy, post the receipt and read an
/// active subscriber.
@Suite struct BannerTourTests {
    /// Runs `commands` with `bash -euo pipefail`; returns the status and standard output.
    static func bash(_ commands: String, in directory: URL) async throws -> (Int32, String) {
        let script = directory.appendingPathComponent("tour-\(UUID().uuidString).sh")
        try commands.write(to: script, atomically: true, encoding: .utf8)
        return try await Blocking.run {
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-euo", "pipefail", script.path]
            let output = Pipe()
            bash.standardOutput = output
            try bash.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            bash.waitUntilExit()
            return (bash.terminationStatus, printed)
        }
    }

    @Test("the README's five-minute tour runs as written against a fresh server")
    func readme() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        let readme = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Five minutes with it"))
        let after = readme[section.upperBound...]
        let open = try #require(after.range(of: "```sh\n"))
        let close = try #require(after[open.upperBound...].range(of: "```"))
        let tour = after[open.upperBound..<close.lowerBound].replacingOccurrences(
            of: "B=http://127.0.0.1:8080", with: "B=\(server.baseURL)")
        #expect(tour.contains("B=\(server.baseURL)"))
        let (status, printed) = try await Self.bash(tour, in: directory)
        #expect(status == 0)
        #expect(printed.contains(#""identifier":"pro""#) && printed.contains(#""status":"active""#))
        #expect(printed.contains(#""type":"receipt_posted""#), "\(printed.suffix(400))")
        // Event details carry their JSON types: a count is a number.
        #expect(
            printed.range(of: #""transactions":[0-9]+"#, options: .regularExpression) != nil, "\(printed.suffix(400))")
    }

    @Test("the banner's commands, run in order by bash, end with alice's active subscription")
    func tour() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        let banner = server.printed.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(banner.firstIndex { $0.contains("try it") }, "\(server.printed)")
        let commands = banner[(start + 1)...].filter { $0.hasPrefix("    ") }.map { $0.dropFirst(4) }
        #expect(commands.count == 5)
        let (status, printed) = try await Self.bash(commands.joined(separator: "\n"), in: directory)
        #expect(status == 0)
        let last = try #require(printed.split(separator: "\n").last)
        #expect(last.contains(#""app_user_id":"alice""#) && last.contains(#""identifier":"pro""#))
        #expect(last.contains(#""status":"active""#), "\(last)")
    }
}

/// `storekeeper migrate`.
@Suite struct MigrateCommandTests {
    @Test("migrate creates the SQLite schema and is idempotent")
    func migrate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"dataDirectory": "\#(directory.path)/data"}"#.utf8).write(to: config)
        let first = try await CommandRunner.run(["migrate", "--config", config.path])
        let version = "version \(SQLStore.schemaVersion)"
        #expect(first.status == 0 && first.standardOutput.contains(version), "\(first.standardOutput)")
        #expect(try await CommandRunner.run(["migrate", "--config", config.path]).standardOutput.contains(version))
        #expect(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/storekeeper.sqlite").path))
    }
}
