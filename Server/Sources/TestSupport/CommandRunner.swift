public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `storekeeper` executable as a child process, as a user would.
public enum CommandRunner {
    /// The result of one run.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var standardOutput: String
        /// Standard error.
        public var standardError: String
    }

    /// The `storekeeper` binary beside the test bundle (SwiftPM builds every product before tests).
    public static var executable: URL { executable(named: "storekeeper") }

    /// The measurement tools' binary, `storekeeper-lab`, beside the test bundle.
    public static var lab: URL { executable(named: "storekeeper-lab") }

    /// The product `name` beside the test bundle (or in `.build/debug`).
    static func executable(named name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Runs `storekeeper` (or another of the package's executables) with arguments and optional standard input.
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - input: Bytes for standard input.
    ///   - program: The executable (default ``executable``; ``lab`` for the measurement tools).
    /// - Returns: Exit status and output.
    public static func run(_ arguments: [String], input: Data? = nil, program: URL = executable) async throws -> Result
    {
        try await Blocking.run { try runWaiting(arguments, input: input, program: program) }
    }

    /// ``run(_:input:program:)`` on the calling thread, which waits for the child to exit.
    static func runWaiting(_ arguments: [String], input: Data?, program: URL) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}

extension CommandRunner {
    /// Runs `program arguments` with SIGPIPE ignored and standard output a pipe nobody reads (`storekeeper … | head`
    /// in a process that has started SwiftNIO, where every write then fails with EPIPE).
    /// - Returns: The process's exit status and termination reason, and what it wrote to standard error.
    public static func intoClosedPipe(_ arguments: [String], program: URL = executable) async throws -> (
        status: Int32, reason: Process.TerminationReason, standardError: String
    ) {
        try await Blocking.run { try intoClosedPipeWaiting(arguments, program: program) }
    }

    /// ``intoClosedPipe(_:program:)`` on the calling thread, which waits for the child to exit.
    static func intoClosedPipeWaiting(_ arguments: [String], program: URL) throws -> (
        status: Int32, reason: Process.TerminationReason, standardError: String
    ) {
        let process = Process()
        // The shell ignores SIGPIPE and `exec`s the command, which keeps that disposition.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap "" PIPE; exec "$0" "$@""#, program.path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try output.fileHandleForReading.close()  // the reader is gone before anything is written
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, stderr)
    }
}

/// A `storekeeper` process running in the background (a server), stopped when the test is done.
public final class BackgroundCommand: @unchecked Sendable {
    let process = Process()
    let output = Pipe()
    /// The first line the process printed that contains "http://".
    public private(set) var baseURL: String = ""
    /// What the process had printed to standard output when its URL appeared (a banner printed in one write is
    /// all there).
    public private(set) var printed: String = ""

    /// Starts `storekeeper` with arguments and waits until it prints a URL.
    /// - Parameters:
    ///   - arguments: e.g. `["simulator", "--port", "0"]`.
    ///   - directory: The working directory (default: the test's).
    ///   - environment: Variables to set for the process on top of this one's (e.g. `DATABASE_URL`).
    ///   - standardError: A file that receives the process's standard error (default: discarded).
    public init(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        standardError: URL? = nil
    ) async throws {
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        if let standardError {
            _ = FileManager.default.createFile(atPath: standardError.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: standardError)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        let reader = output.fileHandleForReading
        // Waiting for the child's first line blocks: on a thread of its own, not one of the test's few.
        let started = try await Blocking.run { () throws -> (String, String)? in
            var buffer = Data()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                let text = String(decoding: buffer, as: UTF8.self)
                if let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                    return (String(text[range]), text)
                }
            }
            return nil
        }
        guard let (url, text) = started else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        baseURL = url
        printed = text
    }

    /// Kills the process at once (SIGKILL: no shutdown, no flush), as a crash or an OOM kill would.
    public func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Asks the process to stop (SIGTERM) without waiting, as a service manager does at shutdown.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
    }

    /// ``stop()`` with the wait on a thread of its own, so the test's other tasks go on meanwhile (a `defer`
    /// cannot await, and uses the blocking one).
    public func stop() async {
        _ = try? await Blocking.run { self.stop() }
    }

    /// Stops the process (SIGTERM, then waits for it to exit; after 60 s, SIGKILL: a test never hangs on a
    /// process that does not stop).
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
    }

    deinit { stop() }
}
