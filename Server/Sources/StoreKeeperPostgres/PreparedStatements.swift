import Logging
import NIOCore
import PostgresNIO
import StoreKeeperStorage
import Synchronization

/// Named server-side prepared statements through postgres-nio's `PostgresPreparedStatement`: PostgreSQL parses
/// and plans each statement once per connection instead of on every execution (parsing and planning were a large
/// share of its CPU per notification); postgres-nio prepares a statement on a connection the first time it runs
/// there and remembers it.
///
/// That API names a statement and its SQL by a type (`static var sql`), and our SQL is text built at run time.
/// So each distinct statement (SQL text and the types of its values) is given a numbered slot, and each slot is
/// a type, ``SlotStatement``, whose name and SQL are the slot's: ``slots`` is the one table from slots to SQL,
/// for the whole process, because the types it serves are (it is append-only, so a slot's SQL never changes
/// once a connection has prepared it). Past ``capacity`` statements, or for statements not worth a slot
/// (``isPreparable(_:)``), a query runs unprepared.
///
/// Each placeholder is prepared with the type of the value bound to it (text, int8, their arrays), so the
/// binary values always match what PostgreSQL expects; the same SQL with other value types is another slot.
enum PreparedStatements {
    /// The most statements given a slot (the store uses a few dozen distinct ones).
    static let capacity = digits.count * digits.count

    /// Every slot's SQL, in slot order, and each statement's slot by its key (SQL and value types).
    static let slots = Mutex<(sql: [String], byKey: [String: Int])>(([], [:]))

    /// Whether a statement is worth a slot: queries and data changes (not DDL, BEGIN or COMMIT), except those whose
    /// text changes with the number of values — the advisory locks, and `IN (?, …)` lists or multi-row
    /// `VALUES (…), (…)` of more than ``listedPlaceholders`` values — each count of which would take a slot of its
    /// own: the batches of an experiment's tally took every slot in one build, after which every statement first
    /// seen ran unprepared. Short lists (a project's few bundle ids, a customer's aliases) stay prepared.
    static func isPreparable(_ sql: String) -> Bool {
        guard ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(where: { sql.utf8.starts(with: $0.utf8) }),
            !sql.utf8.starts(with: "SELECT pg_advisory_xact_lock".utf8)
        else { return false }
        let listed = sql.contains("IN (?") || sql.contains("), (?")
        return !listed || sql.utf8.lazy.filter { $0 == UInt8(ascii: "?") }.count <= listedPlaceholders
    }

    /// The most placeholders a statement with a list of values may have and still be prepared.
    static let listedPlaceholders = 4

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

    /// The slot of `sql` with values of these types, given one if it has none, it is preparable
    /// (``isPreparable(_:)``) and one is free.
    static func slot(_ sql: String, _ binds: [SQLValue]) -> Int? {
        let types = binds.map { value -> Character in
            switch value {
            case .text: "t"
            case .integer: "i"
            case .null: "n"
            case .texts: "T"
            case .integers: "I"
            }
        }
        let key = sql + "\u{0}" + String(types)
        if let slot = slots.withLock({ $0.byKey[key] }) { return slot }
        // Only a statement not slotted yet is looked at: a slotted one was preparable (the rule is pure).
        guard isPreparable(sql) else { return nil }
        return slots.withLock { slots in
            if let slot = slots.byKey[key] { return slot }
            guard slots.sql.count < capacity else { return nil }
            slots.sql.append(numbered(sql, binds: binds))
            slots.byKey[key] = slots.sql.count - 1
            return slots.sql.count - 1
        }
    }

    /// Runs `sql` (with `?` placeholders) as a prepared statement on `connection`.
    /// - Returns: The rows, or `nil` when it has no slot (run it unprepared).
    static func run(_ sql: String, _ binds: [SQLValue], on connection: PostgresConnection, logger: Logger)
        async throws -> [PostgresRow]?
    {
        guard let slot = slot(sql, binds) else { return nil }
        let bindings = try bindings(binds)
        // The slot's digits as values (an element read straight from the array is not opened as a generic argument).
        let high = digits[slot / digits.count]
        let low = digits[slot % digits.count]
        return try await execute(high, low, bindings, connection, logger)
    }

    /// Runs the statement of the slot whose digits are `high` and `low`, `SlotStatement<High, Low>`.
    static func execute<High: SlotDigit, Low: SlotDigit>(
        _ high: High, _ low: Low, _ bindings: PostgresBindings, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        let statement = SlotStatement<High, Low>(bindings: bindings)
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }

    /// The values in PostgreSQL's binary format, matching the placeholder types of ``numbered(_:binds:)``.
    static func bindings(_ binds: [SQLValue]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .texts(let texts): try bindings.append(TextArray(texts))
            case .integers(let numbers): bindings.append(numbers)
            }
        }
        return bindings
    }
}

/// The statement of one slot of ``PreparedStatements``: `High` and `Low` are the slot number's two digits.
struct SlotStatement<High: SlotDigit, Low: SlotDigit>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The bound values.
    var bindings: PostgresBindings

    static var slot: Int { High.value * PreparedStatements.digits.count + Low.value }
    static var name: String { "storekeeper_\(slot)" }
    static var sql: String { PreparedStatements.slots.withLock { $0.sql[slot] } }

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// One digit (0–31) of a slot number, as a type.
protocol SlotDigit: Sendable { static var value: Int { get } }

extension PreparedStatements {
    /// The thirty-two digits of a slot number, in order: 1,024 slots. (256 ran out once the support desk's
    /// statements joined the rest: a process that serves every feature, or the test suite's servers in one
    /// process, saw more distinct statements than that, and each one first seen afterwards ran unprepared.)
    static let digits: [any SlotDigit] =
        [
            Digit0(), Digit1(), Digit2(), Digit3(), Digit4(), Digit5(), Digit6(), Digit7(),
            Digit8(), Digit9(), Digit10(), Digit11(), Digit12(), Digit13(), Digit14(), Digit15(),
            Digit16(), Digit17(), Digit18(), Digit19(), Digit20(), Digit21(), Digit22(), Digit23(),
            Digit24(), Digit25(), Digit26(), Digit27(), Digit28(), Digit29(), Digit30(), Digit31(),
        ]
}

struct Digit0: SlotDigit { static let value = 0 }
struct Digit1: SlotDigit { static let value = 1 }
struct Digit2: SlotDigit { static let value = 2 }
struct Digit3: SlotDigit { static let value = 3 }
struct Digit4: SlotDigit { static let value = 4 }
struct Digit5: SlotDigit { static let value = 5 }
struct Digit6: SlotDigit { static let value = 6 }
struct Digit7: SlotDigit { static let value = 7 }
struct Digit8: SlotDigit { static let value = 8 }
struct Digit9: SlotDigit { static let value = 9 }
struct Digit10: SlotDigit { static let value = 10 }
struct Digit11: SlotDigit { static let value = 11 }
struct Digit12: SlotDigit { static let value = 12 }
struct Digit13: SlotDigit { static let value = 13 }
struct Digit14: SlotDigit { static let value = 14 }
struct Digit15: SlotDigit { static let value = 15 }
struct Digit16: SlotDigit { static let value = 16 }
struct Digit17: SlotDigit { static let value = 17 }
struct Digit18: SlotDigit { static let value = 18 }
struct Digit19: SlotDigit { static let value = 19 }
struct Digit20: SlotDigit { static let value = 20 }
struct Digit21: SlotDigit { static let value = 21 }
struct Digit22: SlotDigit { static let value = 22 }
struct Digit23: SlotDigit { static let value = 23 }
struct Digit24: SlotDigit { static let value = 24 }
struct Digit25: SlotDigit { static let value = 25 }
struct Digit26: SlotDigit { static let value = 26 }
struct Digit27: SlotDigit { static let value = 27 }
struct Digit28: SlotDigit { static let value = 28 }
struct Digit29: SlotDigit { static let value = 29 }
struct Digit30: SlotDigit { static let value = 30 }
struct Digit31: SlotDigit { static let value = 31 }

/// A `text[]` value written straight into the binding's buffer (header, then each element's length and bytes)
/// rather than element by element through the generic array encoding: the raw notifications of a group,
/// several kilobytes each, are bound this way.
struct TextArray: PostgresEncodable {
    /// The elements.
    var texts: [String]

    init(_ texts: [String]) { self.texts = texts }

    static var psqlType: PostgresDataType { .textArray }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        buffer.reserveCapacity(minimumWritableBytes: 20 + texts.count * 4 + texts.reduce(0) { $0 + $1.utf8.count })
        buffer.writeInteger(Int32(texts.isEmpty ? 0 : 1))  // dimensions
        buffer.writeInteger(Int32(0))  // no NULL elements
        buffer.writeInteger(PostgresDataType.text.rawValue)
        guard !texts.isEmpty else { return }
        buffer.writeInteger(Int32(texts.count))  // length of the one dimension
        buffer.writeInteger(Int32(1))  // its lower bound
        for text in texts {
            buffer.writeInteger(Int32(text.utf8.count))
            buffer.writeString(text)
        }
    }
}
