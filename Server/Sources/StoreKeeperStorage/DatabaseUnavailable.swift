/// The database could not be reached: no connection within the configured time, or the connection was lost (the
/// server stopped, restarted or is shutting down). Nothing was committed that the caller was told about; the same
/// request may succeed once the database answers again.
public struct DatabaseUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// What happened (no secrets: never the URL).
    public var reason: String

    /// Makes an error.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { "the database is unavailable: \(reason)" }
}
