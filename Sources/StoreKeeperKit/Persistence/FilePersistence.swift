public import Foundation

/// Keeps the state in `storekeeper-state.json` in a directory (on Apple platforms, the app's Application Support
/// container by default), written atomically and readable only by the app.
public struct FilePersistence: StoreKeeperPersistence {
    /// The file.
    public let fileURL: URL

    /// State in `directory`, which is created when missing.
    public init(directory: URL) {
        self.fileURL = directory.appendingPathComponent("storekeeper-state.json")
    }

    /// `StoreKeeper` in the app's Application Support directory (the app's container on Apple platforms; the
    /// temporary directory where there is none).
    public static var appContainer: FilePersistence {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return FilePersistence(directory: base.appendingPathComponent("StoreKeeper"))
    }

    /// The saved value, or `nil` when the file does not exist.
    public func load() throws -> Data? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        return try Data(contentsOf: fileURL)
    }

    /// Writes the value atomically.
    public func save(_ data: Data) throws {
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try data.write(to: fileURL, options: .atomic)
    }
}
