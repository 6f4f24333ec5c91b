import Foundation
import Hummingbird
import TestSupport
import Testing

/// `storekeeper simulator` runs standalone and its verbs drive it.
@Suite struct SimulatorCommandTests {
    @Test("standalone simulator on a free port: purchase, advance, notifications, receipt via the CLI verbs")
    func standalone() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try BackgroundCommand(["simulator", "--port", "0", "--clock", "manual", "--data", data.path])
        defer { server.stop() }
        let url = ["--url", server.baseURL]
        let purchase = try CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "cli"] + url)
        #expect(purchase.status == 0, "\(purchase.standardError)")
        let transaction = try JSONSerialization.jsonObject(with: Data(purchase.standardOutput.utf8)) as? [String: Any]
        let original = try #require(transaction?["originalTransactionId"] as? String)
        #expect(try CommandRunner.run(["simulator", "advance", "--months", "1.1"] + url).status == 0)
        #expect(
            try CommandRunner.run(["simulator", "do", "auto-renew", original, "--json", #"{"enabled":false}"#] + url)
                .status == 0)
        let notifications = try CommandRunner.run(["simulator", "notifications"] + url)
        #expect(
            notifications.standardOutput.contains("SUBSCRIBED") && notifications.standardOutput.contains("DID_RENEW"))
        #expect(notifications.standardOutput.contains("AUTO_RENEW_DISABLED"))
        let receipt = try CommandRunner.run(["simulator", "receipt", "--customer", "cli"] + url)
        #expect(receipt.status == 0)
        // The receipt verifies with the simulator's persisted root, and only with it.
        let file = data.appendingPathComponent("receipt.b64")
        try receipt.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        let root = data.appendingPathComponent("pki/receipt-root.der").path
        #expect(try CommandRunner.run(["inspect", "--root", root, file.path]).status == 0)
        #expect(try CommandRunner.run(["inspect", file.path]).status == 1)
        #expect(try CommandRunner.run(["simulator", "do", "refund", "999"] + url).status == 1)
        // Stopped and started on the same data folder: the same world, the manual clock where it stood.
        server.stop()
        let again = try BackgroundCommand(["simulator", "--port", "0", "--clock", "manual", "--data", data.path])
        defer { again.stop() }
        let continued = try CommandRunner.run(["simulator", "notifications", "--url", again.baseURL])
        #expect(continued.standardOutput == notifications.standardOutput)
        let next = try CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "cli2", "--url", again.baseURL])
        let nextTransaction = try JSONSerialization.jsonObject(with: Data(next.standardOutput.utf8)) as? [String: Any]
        #expect(nextTransaction?["originalTransactionId"] as? String != original)
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
            let server = try BackgroundCommand([
                "simulator", "--port", "0", "--clock", "manual", "--data", data.path, "--notification-url",
                silent + "/notifications",
            ])
            defer { server.stop() }
            for customer in ["a", "b", "c"] {
                let bought = try CommandRunner.run(
                    [
                        "simulator", "purchase", "--product", "premium.monthly", "--customer", customer, "--url",
                        server.baseURL,
                    ])
                #expect(bought.status == 0)
            }
            try await Task.sleep(for: .milliseconds(800))  // the first delivery is now waiting on the silent URL
            let started = ContinuousClock.now
            server.stop()
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
