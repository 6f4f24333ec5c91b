public import Foundation

/// Loads the real App Store data kept in the repository under `Server/Tests/Fixtures` (see its MANIFEST.md for each
/// file's provenance), so a clone anywhere runs its tests. `$STOREKEEPER_FIXTURES` points elsewhere.
public enum Fixtures {
    /// The fixtures folder.
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["STOREKEEPER_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.appendingPathComponent("Tests/Fixtures")
    }()

    /// The server package's root (`Server/`, the folder holding its Package.swift, its Sources and Tests).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The repository root: the SDK's package (the manifest an app adds), README.md, docs, examples and deploy.
    public static let repositoryRoot: URL = packageRoot.deletingLastPathComponent()

    /// The bytes of a fixture.
    /// - Parameter path: A path below the fixtures folder, e.g. `"jws/notification_TEST_sandbox_2022.jws"`.
    /// - Returns: The file's bytes.
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    /// A fixture as text with surrounding whitespace removed.
    /// - Parameter path: A path below the fixtures folder.
    /// - Returns: The text.
    public static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The file names in a fixtures subfolder, sorted.
    /// - Parameter folder: `receipts`, `jws`, `json` or `certs`.
    /// - Returns: Paths relative to the fixtures folder.
    public static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
            .sorted().map { "\(folder)/\($0)" }
    }

    /// A date from an RFC 3339 literal, for readable tests.
    /// - Parameter text: e.g. `"2020-07-22T17:39:08Z"`.
    /// - Returns: The instant.
    public static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else { preconditionFailure("bad test date \(text)") }
        return date
    }
}
