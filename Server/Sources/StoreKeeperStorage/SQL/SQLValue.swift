/// A value bound into, or read out of, SQL: the few types StoreKeeper stores.
public enum SQLValue: Sendable, Hashable {
    /// Text.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// NULL.
    case null
    /// PostgreSQL only: a `text[]`, for statements that write many rows from one bound value each column.
    case texts([String])
    /// PostgreSQL only: an `int8[]`.
    case integers([Int64])

    /// The text, when this is text.
    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer.
    public var int: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

/// One result row, by column name.
public typealias SQLRow = [String: SQLValue]
