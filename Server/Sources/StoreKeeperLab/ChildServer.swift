import FilePermissions
import Foundation
import StoreKeeperBench
import StoreKeeperCLI

/// A `storekeeper serve` a benchmark starts as its child process (the `storekeeper` binary built beside this one),
/// so the server's CPU time and memory are measured apart from the load it is given. Its configuration is written to a private file (it may name
/// the database's password) and its output to `serve.log` in the folder.
struct ChildServer {
    /// The process.
    let process: Process
    /// `http://127.0.0.1:<port>`.
    let base: String

    /// Starts the server and waits (up to 30 s) until it answers `/health`.
    /// - Parameters:
    ///   - configuration: The configuration file's keys.
    ///   - folder: Where its configuration, log and data folder go.
    static func start(configuration: [String: Any], folder: URL) throws -> ChildServer {
        let port = FreePort.find() ?? 18_700
        let configPath = folder.appendingPathComponent("serve-config.json")
        try PrivateFiles.write(try JSONSerialization.data(withJSONObject: configuration), to: configPath.path)
        let log = folder.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = try serverBinary()
        process.arguments = [
            "serve", "--config", configPath.path, "--port", "\(port)", "--data",
            folder.appendingPathComponent("server").path, "--log-level", "warning",
        ]
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        for _ in 0..<300 {
            if !process.isRunning { throw CommandFailure("the server stopped at start; its log: \(log.path)") }
            if let health = URL(string: base + "/health"), (try? Data(contentsOf: health)) != nil {
                return ChildServer(process: process, base: base)
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        process.terminate()
        throw CommandFailure("the server did not answer /health within 30 s; its log: \(log.path)")
    }

    /// The `storekeeper` executable in this executable's folder (SwiftPM builds both products there).
    /// - Throws: ``CommandFailure`` naming the path and the command that builds it, when it is not there.
    static func serverBinary() throws -> URL {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = folder.appendingPathComponent("storekeeper")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CommandFailure(
                "\(binary.path) is not there: build the server beside this tool (swift build --product storekeeper)")
        }
        return binary
    }

    /// Stops it and waits for it to exit.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// Its resident memory in bytes, or `nil` when unknown.
    var residentBytes: Int? { ProcessCPU(pid: process.processIdentifier).residentBytes() }
}
