/// A batch of rows under a name, as a statement reads them: a table of `columns` the statement names in its
/// `FROM`. The dialect makes it a table its way (arrays unnested, or chunks of bound `VALUES`).
public struct SQLRowSet: Sendable {
    /// The table's name in the statement (a short identifier such as `u`).
    public var name: String
    /// Its columns' names.
    public var columns: [String]
    /// Its rows, each a value per column; a column holds only texts or only integers.
    public var rows: [[SQLValue]]

    /// A batch of rows.
    /// - Parameters:
    ///   - name: The table's name in the statement.
    ///   - columns: Its columns' names.
    ///   - rows: Its rows, each a value per column.
    public init(_ name: String, columns: [String], rows: [[SQLValue]]) {
        self.name = name
        self.columns = columns
        self.rows = rows
    }

    /// A batch of one text column.
    /// - Parameters:
    ///   - name: The table's name in the statement.
    ///   - column: The column's name.
    ///   - texts: One row per text.
    public init(_ name: String, column: String, texts: [String]) {
        self.init(name, columns: [column], rows: texts.map { [.text($0)] })
    }

    /// The values of the column at `index`, top to bottom.
    public func column(_ index: Int) -> [SQLValue] { rows.map { $0[index] } }
}

/// One statement over a batch of rows: `sql` reads the batch as the table ``SQLRowSet/name`` and has placeholders
/// for `binds` only (the batch's own values come before them).
public struct SQLBatchStatement: Sendable {
    /// The rows the statement reads.
    public var rows: SQLRowSet
    /// The statement, naming the rows' table.
    public var sql: String
    /// The values of the statement's own placeholders, in order.
    public var binds: [SQLValue]

    /// A statement over a batch of rows.
    /// - Parameters:
    ///   - rows: The rows the statement reads.
    ///   - sql: The statement, naming the rows' table.
    ///   - binds: The values of the statement's own placeholders.
    public init(over rows: SQLRowSet, _ sql: String, _ binds: [SQLValue] = []) {
        self.rows = rows
        self.sql = sql
        self.binds = binds
    }
}
