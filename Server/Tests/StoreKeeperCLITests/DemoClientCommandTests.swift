import Foundation
import TestSupport
import Testing

/// `storekeeper demo-client` plays an app's life with StoreKeeperKit against a real `storekeeper serve`, and what
/// it prints is what the user would see at each step.
@Suite struct DemoClientCommandTests {
    @Test("first launch shows the paywall; the purchase unlocks; relaunch is cached; a renewal and a refund are seen")
    func life() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(
            ["serve", "--port", "0", "--simulator-clock", "manual", "--simulator-rate", "1h"], in: directory)
        defer { server.stop() }
        let result = try await CommandRunner.run([
            "demo-client", "--server", server.baseURL, "--customer", "tess", "--offerings-timeout", "30",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        func line(after step: String) -> String {
            guard let index = lines.firstIndex(where: { $0.hasPrefix(step) }), index + 1 < lines.count else {
                return ""
            }
            return lines[index + 1]
        }
        #expect(line(after: "1. First launch").contains("No subscription: the paywall [server]"))
        #expect(lines.contains("   Paywall (offering default from the server):"), "\(result.standardOutput)")
        #expect(lines.contains("     premium.monthly: 1 week free, then $9.99 / month"))
        #expect(lines.contains { $0.hasPrefix("     premium.annual: ") }, "\(result.standardOutput)")
        #expect(line(after: "2. The user buys").contains("pro unlocked by premium.monthly"))
        #expect(line(after: "2. The user buys").contains("(trial, renews) [server]"))
        #expect(
            line(after: "3. Relaunch").contains("Served from the cache")
                && line(after: "3. Relaunch").hasSuffix("[cached]"))
        // Renewed while closed: the trial's end has passed and a paid period follows.
        let renewed = line(after: "4. A month passes")
        #expect(renewed.contains("Next launch: pro unlocked by premium.monthly until"))
        #expect(renewed.contains("(normal, renews)"), "\(result.standardOutput)")
        #expect(line(after: "5. Apple refunds").contains("No subscription: the paywall [server]"))

        let wrong = try await CommandRunner.run(["demo-client", "--server", "not a url"])
        #expect(wrong.status != 0 && wrong.standardError.contains("--server"))
    }

    @Test("the demo server signs a promotional offer its App Store accepts once; unsigned, the purchase is refused")
    func promotionalOfferByCLI() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await BackgroundCommand(["serve", "--port", "0"], in: directory)
        defer { server.stop() }
        let client = ServeClient(base: server.baseURL)
        let (status, answer) = try await client.call(
            .POST, "/v1/offers/sign", key: "sk_demo_storekeeper_secret",
            body: #"{"product_id":"premium.monthly","offer_id":"winback50"}"#)
        #expect(status == 200, "\(answer)")
        let signed = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        let jws = try #require(signed?["compact_jws"] as? String)
        let offer = ["--offer", "promotional", "--offer-id", "winback50", "--url", server.baseURL]
        let unsigned = try await CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "u"] + offer)
        #expect(unsigned.status != 0 && unsigned.standardError.contains("offer_signature_missing"))
        let bought = try await CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "v", "--offer-jws", jws] + offer)
        #expect(bought.status == 0, "\(bought.standardError)")
        let again = try await CommandRunner.run(
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "w", "--offer-jws", jws] + offer)
        #expect(again.status != 0 && again.standardError.contains("offer_nonce_reused"))
    }
}
