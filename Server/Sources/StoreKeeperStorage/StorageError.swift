/// A storage failure that is not the database's own error: bad configuration, corrupt stored data.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String

    /// Makes an error.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
