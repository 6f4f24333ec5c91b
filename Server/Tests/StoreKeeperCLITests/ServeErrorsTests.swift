import Foundation
import TestSupport
import Testing

/// What `storekeeper serve` says when it cannot start: one line a person can act on, naming the file, the
/// folder or the port, with no usage text, and exit status 1.
@Suite struct ServeErrorsTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `serve` with a configuration file holding `text`.
    static func serve(config text: String, in directory: URL) async throws -> CommandRunner.Result {
        let file = directory.appendingPathComponent("config.json")
        try Data(text.utf8).writePrivately(to: file)
        return try await CommandRunner.run(["serve", "--port", "0", "--config", file.path])
    }

    /// The one line printed, when there is exactly one.
    static func line(_ result: CommandRunner.Result) -> String? {
        let lines = result.standardError.split(separator: "\n")
        return lines.count == 1 ? String(lines[0]) : nil
    }

    @Test("a configuration file that is missing, not JSON, has an unknown key or a value of the wrong type")
    func configurationMessages() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json").path
        let missing = try await CommandRunner.run([
            "serve", "--config", directory.appendingPathComponent("absent.json").path,
        ])
        #expect(missing.status == 1)
        #expect(Self.line(missing) == "Error: configuration file \(directory.path)/absent.json does not exist")
        let cases: [(String, String)] = [
            ("{\n  \"port\": 99,\n  bogus\n}", "not valid JSON at line 3, column 3"),
            (#"{"port": 9999, "bogus": 1}"#, #"unknown key "bogus" at the top level"#),
            (#"{"apps": [{"bundleID": "com.a", "sharedSecert": "x"}]}"#, #"unknown key "sharedSecert" in apps[0]"#),
            (#"{"limits": {"idleTimeout": 5}}"#, #"unknown key "idleTimeout" in limits"#),
            (#"{"port": "8080"}"#, "port must be a number"),
        ]
        for (text, message) in cases {
            let result = try await Self.serve(config: text, in: directory)
            #expect(result.status == 1, "\(text)")
            let line = Self.line(result)
            #expect(line?.hasPrefix("Error: configuration \(file): \(message)") == true, "\(result.standardError)")
            #expect(!result.standardError.contains("Usage"))
        }
    }

    @Test("a second server on the same data directory refuses, naming the folder and the holder")
    func secondServerRefused() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = #"{"dataDirectory": "\#(directory.path)/data"}"#
        let file = directory.appendingPathComponent("first.json")
        try Data(config.utf8).write(to: file)
        let first = try await BackgroundCommand(["serve", "--port", "0", "--config", file.path])
        defer { first.stop() }
        let second = try await Self.serve(config: config, in: directory)
        #expect(second.status == 1)
        let line = try #require(Self.line(second), "\(second.standardError)")
        #expect(
            line.hasPrefix("Error: data directory \(directory.path)/data is in use by another storekeeper"), "\(line)")
        #expect(line.contains("(pid ") && line.contains("PostgreSQL"))
    }

    @Test("a busy port is named")
    func busyPort() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await BackgroundCommand(["serve", "--port", "0", "--config", try write(directory, "a")])
        defer { first.stop() }
        let port = try #require(first.baseURL.split(separator: ":").last.map(String.init))
        let second = try await CommandRunner.run(["serve", "--port", port, "--config", try write(directory, "b")])
        #expect(second.status == 1)
        #expect(
            Self.line(second)
                == "Error: port \(port) on 127.0.0.1 is already in use: stop what listens there or choose another --port",
            "\(second.standardError)")
    }

    /// A configuration whose data directory is `name` below `directory`.
    func write(_ directory: URL, _ name: String) throws -> String {
        let file = directory.appendingPathComponent("\(name).json")
        try Data(#"{"dataDirectory": "\#(directory.path)/\#(name)"}"#.utf8).write(to: file)
        return file.path
    }

    @Test("an input file that cannot be read is one line, exit 1")
    func unreadableInput() async throws {
        let result = try await CommandRunner.run(["inspect", "/nonexistent/receipt.b64"])
        #expect(result.status == 1)
        #expect(Self.line(result) == "Error: cannot read /nonexistent/receipt.b64: no such file")
    }
}
