import Logging
import NIOCore
import PostgresNIO
import StoreKeeperStorage
import Synchronization

/// Named server-side prepared statements, per pooled connection: PostgreSQL parses and plans each statement
/// once per connection instead of on every execution (parsing and planning were a large share of its CPU per
/// notification).
///
/// Each placeholder is prepared with the type of the value bound to it (text or int8), so the binary values
/// always match what PostgreSQL expects; the same SQL with other value types is another statement.
final class PreparedStatements: Sendable {
    /// Statements prepared on each connection, by SQL.
    let prepared = Mutex<[PostgresConnection.ID: [String: PreparedQuery]]>([:])
    /// The most statements kept per connection (the store uses a few dozen distinct ones).
    let limit = 256

    /// Whether a statement is worth preparing: queries and data changes (not DDL, BEGIN or COMMIT).
    static func isPreparable(_ sql: String) -> Bool {
        ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains { sql.utf8.starts(with: $0.utf8) }
    }

    /// `?` placeholders numbered `$1`, `$2`, … (our statements never contain `?` inside literals); with
    /// `binds`, each placeholder also carries its value's type (`::text`, `::int8`; a NULL's is inferred), so
    /// the statement PostgreSQL prepares takes exactly the values we send.
    static func numbered(_ sql: String, binds: [SQLValue]? = nil) -> String {
        var numbered = ""
        var index = 0
        for character in sql {
            if character == "?" {
                numbered += "$\(index + 1)"
                if let binds, index < binds.count {
                    switch binds[index] {
                    case .text: numbered += "::text"
                    case .integer: numbered += "::int8"
                    case .texts: numbered += "::text[]"
                    case .integers: numbered += "::int8[]"
                    case .null: break
                    }
                }
                index += 1
            } else {
                numbered.append(character)
            }
        }
        return numbered
    }

    /// Runs `sql` (with `?` placeholders) as a prepared statement on `connection`, preparing it first when
    /// this connection has not yet (one statement per SQL text and value types).
    /// - Returns: The rows, or `nil` when this connection already holds `limit` statements (run it unprepared).
    func run(_ sql: String, _ binds: [SQLValue], on connection: PostgresConnection) async throws -> [PostgresRow]? {
        let key =
            sql + "\u{0}"
            + String(
                binds.map { value -> Character in
                    switch value {
                    case .text: "t"
                    case .integer: "i"
                    case .null: "n"
                    case .texts: "T"
                    case .integers: "I"
                    }
                })
        let known = prepared.withLock { $0[connection.id]?[key] }
        let statement: PreparedQuery
        if let known {
            statement = known
        } else {
            guard prepared.withLock({ $0[connection.id]?.count ?? 0 }) < limit else { return nil }
            statement = try await connection.prepare(query: Self.numbered(sql, binds: binds)).get()
            prepared.withLock { all in
                if all[connection.id, default: [:]].count < limit { all[connection.id, default: [:]][key] = statement }
            }
        }
        return try await statement.execute(binds.map(Self.data)).get()
    }

    /// A value in PostgreSQL's binary format, matching the placeholder types of ``numbered(_:binds:)``.
    static func data(_ value: SQLValue) -> PostgresData {
        switch value {
        case .null: .null
        case .text(let text): PostgresData(string: text)
        case .integer(let number): PostgresData(int64: number)
        case .texts(let texts):
            array(of: .text, as: .textArray, texts.count, bytes: texts.reduce(0) { $0 + $1.utf8.count }) {
                buffer, index in
                buffer.writeInteger(Int32(texts[index].utf8.count))
                buffer.writeString(texts[index])
            }
        case .integers(let numbers):
            array(of: .int8, as: .int8Array, numbers.count, bytes: numbers.count * 8) { buffer, index in
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(numbers[index])
            }
        }
    }

    /// A one-dimensional array in PostgreSQL's binary format, written straight into one buffer (header, then
    /// each element as its length and bytes) rather than through one `PostgresData` per element: the raw
    /// notifications of a group, several kilobytes each, are bound this way.
    static func array(
        of element: PostgresDataType, as type: PostgresDataType, _ count: Int, bytes: Int,
        _ write: (inout ByteBuffer, Int) -> Void
    ) -> PostgresData {
        var buffer = ByteBufferAllocator().buffer(capacity: 20 + count * 4 + bytes)
        buffer.writeInteger(Int32(count == 0 ? 0 : 1))  // dimensions
        buffer.writeInteger(Int32(0))  // no NULL elements
        buffer.writeInteger(element.rawValue)
        if count > 0 {
            buffer.writeInteger(Int32(count))  // length of the one dimension
            buffer.writeInteger(Int32(1))  // its lower bound
            for index in 0..<count { write(&buffer, index) }
        }
        return PostgresData(type: type, formatCode: .binary, value: buffer)
    }

    /// Forgets a connection's statements (it was closed).
    func forget(_ connection: PostgresConnection.ID) {
        prepared.withLock { $0[connection] = nil }
    }
}
