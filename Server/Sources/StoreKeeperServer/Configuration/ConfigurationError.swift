/// A configuration the server refuses: a missing or malformed file, an unknown key, a value out of range or two
/// settings that contradict each other. The reason names the setting (and the entry, for an app, key or webhook)
/// and its value — never a secret — so the fix is plain from the one line `serve` prints before it exits.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the setting.
    public var reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
