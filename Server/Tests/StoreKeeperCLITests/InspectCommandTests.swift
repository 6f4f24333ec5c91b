import AppStoreVerification
import Foundation
import TestSupport
import Testing

/// `storekeeper inspect` as a user runs it: verdicts, exit codes, JSON shape.
@Suite struct InspectCommandTests {
    @Test("every fixture: exit 0 when valid, 1 when not; Xcode ones need --allow-xcode")
    func exitCodes() async throws {
        for folder in ["receipts", "jws", "json"] {
            for file in try Fixtures.files(in: folder) {
                let path = Fixtures.directory.appendingPathComponent(file).path
                let strict = try await CommandRunner.run(["inspect", path])
                let isXcode = file.contains("xcode")
                let expectedValid = !isXcode && !file.contains("21002")
                #expect(strict.status == (expectedValid ? 0 : 1), "\(file): \(strict.standardError)")
                if !expectedValid { #expect(!strict.standardError.isEmpty) }
                let lenient = try await CommandRunner.run(["inspect", "--allow-xcode", path])
                #expect(
                    lenient.status == (file.contains("21002") ? 1 : 0),
                    "\(file) --allow-xcode: \(lenient.standardError)")
            }
        }
    }

    @Test("--json prints one object with kind, valid, environment, payload, error")
    func jsonShape() async throws {
        let path = Fixtures.directory.appendingPathComponent("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64").path
        let result = try await CommandRunner.run(["inspect", "--json", path])
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "receipt")
        #expect(object["valid"] as? Bool == true)
        #expect(object["environment"] as? String == "Sandbox")
        #expect(object["error"] is NSNull)
        let payload = try #require(object["payload"] as? [String: Any])
        #expect((payload["in_app"] as? [Any])?.count == 9)
        #expect(payload["bundle_id"] as? String == "com.revenuecat.sampleapp")
    }

    @Test("a failure in --json mode carries the error code")
    func jsonError() async throws {
        let path = Fixtures.directory.appendingPathComponent("jws/xcode_renewalinfo_2023.jws").path
        let result = try await CommandRunner.run(["inspect", "--json", path])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["code"] as? String == "xcode_not_allowed")
    }

    @Test("standard input, tampered input and --at")
    func stdinAndTime() async throws {
        let token = try Fixtures.text("jws/notification_TEST_sandbox_2022.jws")
        #expect(try await CommandRunner.run(["inspect", "-"], input: Data(token.utf8)).status == 0)
        let forged = try await CommandRunner.run(["inspect", "-"], input: Data(JWSTamper.flippedSignature(token).utf8))
        #expect(forged.status == 1)
        #expect(forged.standardError.contains("invalid_signature"))
        let today = try await CommandRunner.run(
            ["inspect", "--at", "2026-11-21T00:00:00Z", "-"], input: Data(token.utf8))
        #expect(today.status == 1)
        #expect(today.standardError.contains("certificate_not_valid_at_time"))
        let garbage = try await CommandRunner.run(["inspect", "-"], input: Data([0x30, 0x82, 0xFF]))
        #expect(garbage.status == 1)
    }

    @Test(
        "usage errors exit 2",
        arguments: [["inspect"], ["inspect", "--at", "yesterday", "x"], ["inspect", "--nope", "x"], ["frobnicate"]])
    func usage(_ arguments: [String]) async throws {
        #expect(try await CommandRunner.run(arguments).status == 2)
    }
}

/// Output into a pipe whose reader is gone (`storekeeper … | head -c 10`) stops the command quietly — also when
/// SIGPIPE is ignored, as it is in a process that has started SwiftNIO, where every write then fails with EPIPE.
@Suite struct ClosedPipeTests {
    static let receipt = Fixtures.directory.appendingPathComponent("receipts/sandbox_ios_revenuecat_sampleapp_2020.b64")
        .path

    @Test(
        "a closed pipe on standard output with SIGPIPE ignored: exit 0, no crash, no backtrace",
        arguments: [
            ["inspect", "--json", receipt], ["inspect", receipt], ["state", "--json", receipt], ["state", receipt],
            ["keys", "new", "public"], ["keys", "new", "secret"],
        ])
    func closedPipe(_ arguments: [String]) async throws {
        let (status, reason, stderr) = try await CommandRunner.intoClosedPipe(arguments)
        #expect(reason == .exit && status == 0, "\(stderr.prefix(300))")
        #expect(!stderr.contains("crashed") && !stderr.contains("Fatal error"), "\(stderr.prefix(300))")
    }

    @Test("the simulator's printing verbs into a closed pipe: exit 0 each")
    func simulatorVerbs() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await BackgroundCommand(["simulator", "--port", "0", "--clock", "manual", "--data", data.path])
        defer { server.stop() }
        let url = ["--url", server.baseURL]
        #expect(
            try await CommandRunner.run(
                ["simulator", "purchase", "--product", "premium.monthly", "--customer", "p"] + url
            )
            .status == 0)
        for verb in [
            ["simulator", "notifications"], ["simulator", "receipt", "--customer", "p"],
            ["simulator", "purchase", "--product", "premium.monthly", "--customer", "q"],
            ["simulator", "advance", "--months", "0.1"],
        ] {
            let (status, reason, stderr) = try await CommandRunner.intoClosedPipe(verb + url)
            #expect(status == 0, "\(verb): \(stderr.prefix(300))")
            #expect(!stderr.contains("crashed") && !stderr.contains("Fatal error"), "\(verb): \(stderr.prefix(300))")
        }
    }
}
