public import Foundation

/// Keeps the state in memory: it survives a new ``StoreKeeper`` on the same instance (a relaunch in a test), not
/// the process.
public actor InMemoryPersistence: StoreKeeperPersistence {
    private var data: Data?

    /// An empty store.
    public init() {}

    /// The value saved last.
    public func load() -> Data? { data }

    /// Replaces the value.
    public func save(_ data: Data) { self.data = data }
}
