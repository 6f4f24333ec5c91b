import Foundation
import TestSupport
import Testing

/// The production recipes in `deploy/` hold as far as this machine can check them: systemd accepts the unit
/// (scripts/container-check runs the Containerfile's runtime contract after the release build).
@Suite struct DeploymentRecipeTests {
    @Test("deploy/storekeeper.service passes `systemd-analyze verify` without a warning")
    func systemdUnit() async throws {
        let analyzer = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        try #require(FileManager.default.isExecutableFile(atPath: analyzer.path), "systemd-analyze is not installed")
        let unit = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("deploy/storekeeper.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/storekeeper serve"))
        // Verified with ExecStart pointing at the binary the tests built (verify checks that it exists).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("storekeeper.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/storekeeper", with: CommandRunner.executable.path)
            .write(to: copy, atomically: true, encoding: .utf8)
        let (status, warnings) = try await Blocking.run {
            let process = Process()
            process.executableURL = analyzer
            process.arguments = ["verify", copy.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, warnings)
        }
        #expect(status == 0)
        #expect(!warnings.contains("storekeeper.service"), "\(warnings)")
    }
}
