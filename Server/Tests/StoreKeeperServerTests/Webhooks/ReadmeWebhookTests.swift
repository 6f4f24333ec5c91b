import Foundation
import StoreKeeperServer
import TestSupport
import Testing

/// The README's signature checks work as printed: its Swift function is `ReadmeSignatureCheck.swift` verbatim,
/// its Python function runs with `python3`, and both accept what the server signs and refuse anything else.
@Suite struct ReadmeWebhookTests {
    static let secret = "whsec_0123456789abcdef"
    static let body = Data(#"{"id":"e-1","type":"renewal"}"#.utf8)

    /// The code block of `language` in docs/webhooks.md (where the README's webhooks section points).
    static func readmeBlock(_ language: String) throws -> String {
        let readme = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Hearing about changes"))
        let start = try #require(readme.range(of: "```\(language)\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    /// Headers to try: the server's own, and three that must be refused.
    static func cases(now: Date) -> [(header: String, body: Data, valid: Bool)] {
        let t = Int64(now.timeIntervalSince1970)
        let good = WebhookSignature.value(secret: secret, timestamp: t, body: Array(body))
        return [
            (good, body, true),
            (good, Data(#"{"id":"e-1","type":"refund"}"#.utf8), false),
            (WebhookSignature.value(secret: "whsec_other", timestamp: t, body: Array(body)), body, false),
            (WebhookSignature.value(secret: secret, timestamp: t - 3_600, body: Array(body)), body, false),
            ("v1=00", body, false),
        ]
    }

    @Test("the README's Swift check is the tested file, and agrees with the server's signatures")
    func swiftCheck() throws {
        let file = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent(
                "Tests/StoreKeeperServerTests/Webhooks/ReadmeSignatureCheck.swift"), encoding: .utf8)
        #expect(try Self.readmeBlock("swift") == file)
        for check in Self.cases(now: Date()) {
            #expect(
                isValidStoreKeeperSignature(check.header, body: check.body, secret: Self.secret) == check.valid,
                "\(check.header)")
        }
    }

    @Test("the README's Python check runs with python3 and agrees with the server's signatures")
    func pythonCheck() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-py-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = Self.cases(now: Date())
        var driver = try Self.readmeBlock("python") + "\nimport sys\n"
        for (index, check) in cases.enumerated() {
            let path = directory.appendingPathComponent("body-\(index)").path
            try check.body.write(to: URL(fileURLWithPath: path))
            let arguments = [
                Self.quoted(check.header), "open(\(Self.quoted(path)), 'rb').read()", Self.quoted(Self.secret),
            ]
            driver += "print(is_valid_storekeeper_signature(\(arguments.joined(separator: ", "))))\n"
        }
        let script = directory.appendingPathComponent("check.py")
        try driver.write(to: script, atomically: true, encoding: .utf8)
        let (status, printed) = try await Blocking.run {
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            python.arguments = [script.path]
            let output = Pipe()
            python.standardOutput = output
            try python.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            python.waitUntilExit()
            return (python.terminationStatus, printed)
        }
        #expect(status == 0)
        #expect(printed.split(separator: "\n").map(String.init) == cases.map { $0.valid ? "True" : "False" })
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
