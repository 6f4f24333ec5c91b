public import Foundation

/// Where StoreKeeperKit keeps what must survive a relaunch: the app user id and the last server answer. It stores
/// one opaque value; ``InMemoryPersistence`` for tests, ``FilePersistence`` on a device.
public protocol StoreKeeperPersistence: Sendable {
    /// The value saved last, or `nil` if none.
    func load() async throws -> Data?
    /// Replaces the saved value.
    func save(_ data: Data) async throws
}
