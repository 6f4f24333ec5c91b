/// Where a reader of a project's event feed stands: after the event `id` written by transaction `transaction`.
/// Events are read in (transaction, id) order and only once every transaction before the reader's horizon has
/// ended, so a cursor never passes an event a write still in progress will commit (PostgreSQL's transaction ids;
/// on SQLite, where one writer commits at a time, `transaction` is 0 and ids are commit order).
public struct EventFeedCursor: Sendable, Hashable, CustomStringConvertible {
    /// The writing transaction's id (PostgreSQL's `xid8`; 0 on SQLite).
    public var transaction: UInt64
    /// The event's id.
    public var id: Int64

    /// A cursor after `id` of `transaction`.
    public init(transaction: UInt64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// The cursor as the API hands it out: `<transaction>-<id>`.
    public var description: String { "\(transaction)-\(id)" }

    /// Reads a cursor the API handed out; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count <= 41, parts.count == 2, let transaction = UInt64(parts[0]),
            let id = Int64(parts[1]), id >= 0, parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
        else { return nil }
        self.init(transaction: transaction, id: id)
    }
}
