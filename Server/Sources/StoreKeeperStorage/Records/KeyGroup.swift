/// Every stored key naming one customer: the account an id resolves to and its aliases.
public struct KeyGroup: Sendable, Hashable {
    /// The customer's stored key (an alias resolved to its account).
    public var account: String
    /// Every key naming the customer: the account's own and its aliases'.
    public var keys: Set<String>
    /// Whether the server holds a subscriber row for the account (evidence).
    public var stored: Bool

    /// Makes a group.
    public init(account: String, keys: Set<String>, stored: Bool) {
        self.account = account
        self.keys = keys
        self.stored = stored
    }
}
