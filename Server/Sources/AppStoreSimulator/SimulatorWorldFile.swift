import FilePermissions
import Foundation

/// Where a simulator keeps its world between runs: `world.json` in its data folder, private (it holds the App
/// Store Server API keys the simulator generated), replaced atomically on every save.
public struct SimulatorWorldFile: Sendable {
    /// The file.
    public let path: String

    /// The world file of a simulator data folder.
    /// - Parameter directory: The folder (`data/simulator` by default).
    public init(directory: String) {
        path = URL(fileURLWithPath: directory).appendingPathComponent("world.json").path
    }

    /// The saved world, or `nil` when none was saved yet.
    /// - Throws: ``SimulatorError`` (`unreadable_world`) naming the file when it cannot be read or is not a world.
    public func load() throws -> SimulatorWorld? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SimulatorError(
                .unreadableWorld, "cannot read \(path): \(error.localizedDescription)", kind: .failed)
        }
        do { return try JSONDecoder().decode(SimulatorWorld.self, from: data) } catch {
            throw SimulatorError(
                .unreadableWorld, "\(path) is not a saved simulator world (move it away to start afresh): \(error)",
                kind: .failed)
        }
    }

    /// Saves `world`, replacing what was saved.
    /// - Throws: ``SimulatorError`` (`unwritable_world`) naming the file.
    public func save(_ world: SimulatorWorld) throws {
        do {
            try PrivateFiles.createDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            try PrivateFiles.write(try JSONEncoder().encode(world), to: path)
        } catch {
            throw SimulatorError(
                .unwritableWorld, "cannot save the simulator's world to \(path): \(error)", kind: .failed)
        }
    }
}
