import Foundation
import Hummingbird
import TestSupport
import Testing

/// `storekeeper simulator` runs standalone and its verbs drive it.
@Suite struct SimulatorCommandTests {
    @Test("standalone simulator on a free port: purchase, advance, notifications, receipt via the CLI verbs")
    func standalone() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await BackgroundCommand(["simulator", "--port", "0", "--clock", "manual", "--data", data.path])
        defer { server.stop() }
        let url = ["--url", server.baseURL]
        let purchase = try await CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "cli"] + url)
        #expect(purchase.status == 0, "\(purchase.standardError)")
        let transaction = try JSONSerialization.jsonObject(with: Data(purchase.standardOutput.utf8)) as? [String: Any]
        let original = try #require(transaction?["originalTransactionId"] as? String)
        #expect(try await CommandRunner.run(["simulator", "advance", "--months", "1.1"] + url).status == 0)
        #expect(
            try await CommandRunner.run(
                ["simulator", "do", "auto-renew", original, "--json", #"{"enabled":false}"#] + url
            )
            .status == 0)
        let notifications = try await CommandRunner.run(["simulator", "notifications"] + url)
        #expect(
            notifications.standardOutput.contains("SUBSCRIBED") && notifications.standardOutput.contains("DID_RENEW"))
        #expect(notifications.standardOutput.contains("AUTO_RENEW_DISABLED"))
        let receipt = try await CommandRunner.run(["simulator", "receipt", "--customer", "cli"] + url)
        #expect(receipt.status == 0)
        // The receipt verifies with the simulator's persisted root, and only with it.
        let file = data.appendingPathComponent("receipt.b64")
        try receipt.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        let root = data.appendingPathComponent("pki/receipt-root.der").path
        #expect(try await CommandRunner.run(["inspect", "--root", root, file.path]).status == 0)
        #expect(try await CommandRunner.run(["inspect", file.path]).status == 1)
        #expect(try await CommandRunner.run(["simulator", "do", "refund", "999"] + url).status == 1)
        // Stopped and started on the same data folder: the same world, the manual clock where it stood.
        await server.stop()
        let again = try await BackgroundCommand(["simulator", "--port", "0", "--clock", "manual", "--data", data.path])
        defer { again.stop() }
        let continued = try await CommandRunner.run(["simulator", "notifications", "--url", again.baseURL])
        #expect(continued.standardOutput == notifications.standardOutput)
        let next = try await CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "cli2", "--url", again.baseURL])
        let nextTransaction = try JSONSerialization.jsonObject(with: Data(next.standardOutput.utf8)) as? [String: Any]
        #expect(nextTransaction?["originalTransactionId"] as? String != original)
    }
}

/// `--environment Production`: production-shaped evidence, and verifyReceipt answering at the production URL.
@Suite struct SimulatorEnvironmentTests {
    @Test("--environment Production: the production verifyReceipt answers 0 and says Production; Sandbox answers 21007")
    func production() async throws {
        for (environment, status) in [("Production", 0), ("Sandbox", 21_007)] {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let server = try await BackgroundCommand([
                "simulator", "--port", "0", "--clock", "manual", "--data", data.path, "--environment", environment,
            ])
            defer { server.stop() }
            #expect(server.printed.contains("(\(environment), rate"))
            let url = ["--url", server.baseURL]
            #expect(
                try await CommandRunner.run(
                    ["simulator", "purchase", "--product", "premium.monthly", "--customer", "e"] + url
                )
                .status == 0)
            let receipt = try await CommandRunner.run(["simulator", "receipt", "--customer", "e"] + url).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let (_, answer) = try await ServeRestartTests.call(
                server.baseURL, "POST", "/verifyReceipt", key: nil,
                body: #"{"receipt-data":"\#(receipt)","password":"demo-shared-secret"}"#)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            #expect(object["status"] as? Int == status, "\(environment): \(answer.prefix(200))")
            if status == 0 { #expect(object["environment"] as? String == "Production") }
        }
        #expect(try await CommandRunner.run(["simulator", "--environment", "Staging"]).status == 2)
    }

    @Test("serve's in-process simulator takes simulatorEnvironment from the configuration")
    func inProcess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("envs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try #"{"simulatorEnvironment": "Production"}"#.write(to: config, atomically: true, encoding: .utf8)
        let server = try await BackgroundCommand(["serve", "--port", "0", "--config", config.path], in: directory)
        defer { server.stop() }
        _ = try await ServeRestartTests.subscribe(server.baseURL, "prod")
        let (_, receiptJSON) = try await ServeRestartTests.call(
            server.baseURL, "GET", "/simulator/v1/apps/com.example.storekeeper.demo/receipt?customerID=prod", key: nil)
        let receipt = try #require(
            (try JSONSerialization.jsonObject(with: Data(receiptJSON.utf8)) as? [String: Any])?["receipt"] as? String)
        let (_, answer) = try await ServeRestartTests.call(
            server.baseURL, "POST", "/verifyReceipt", key: nil,
            body: #"{"receipt-data":"\#(receipt)","password":"demo-shared-secret"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        #expect(
            object["status"] as? Int == 0 && object["environment"] as? String == "Production", "\(answer.prefix(200))")
    }
}

/// The standalone simulator stops promptly even while its notification URL never answers.
@Suite struct SimulatorShutdownTests {
    @Test("SIGTERM stops the simulator within seconds while deliveries hang on a silent notification URL")
    func promptShutdown() async throws {
        let router = Router()
        router.post("notifications") { _, _ -> Response in
            try await Task.sleep(for: .seconds(60))
            return Response(status: .ok)
        }
        try await LiveServer.with({ running in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: quietLogger)
        }) { silent in
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("sim-stop-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let server = try await BackgroundCommand([
                "simulator", "--port", "0", "--clock", "manual", "--data", data.path, "--notification-url",
                silent + "/notifications",
            ])
            defer { server.stop() }
            for customer in ["a", "b", "c"] {
                let bought = try await CommandRunner.run(
                    [
                        "simulator", "purchase", "--product", "premium.monthly", "--customer", customer, "--url",
                        server.baseURL,
                    ])
                #expect(bought.status == 0)
            }
            try await Task.sleep(for: .milliseconds(800))  // the first delivery is now waiting on the silent URL
            let started = ContinuousClock.now
            await server.stop()
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
