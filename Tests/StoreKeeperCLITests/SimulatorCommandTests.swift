import Foundation
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
        let purchase = try CommandRunner.run(["simulator", "purchase", "--product", "premium.monthly", "--customer", "cli"] + url)
        #expect(purchase.status == 0, "\(purchase.standardError)")
        let transaction = try JSONSerialization.jsonObject(with: Data(purchase.standardOutput.utf8)) as? [String: Any]
        let original = try #require(transaction?["originalTransactionId"] as? String)
        #expect(try CommandRunner.run(["simulator", "advance", "--months", "1.1"] + url).status == 0)
        #expect(try CommandRunner.run(["simulator", "do", "auto-renew", original, "--json", #"{"enabled":false}"#] + url).status == 0)
        let notifications = try CommandRunner.run(["simulator", "notifications"] + url)
        #expect(notifications.standardOutput.contains("SUBSCRIBED") && notifications.standardOutput.contains("DID_RENEW"))
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
    }
}
