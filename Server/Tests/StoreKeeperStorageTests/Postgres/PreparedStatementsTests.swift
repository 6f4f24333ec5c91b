import Foundation
import PostgresNIO
import StoreKeeperStorage
import TestSupport
import Testing

@testable import StoreKeeperPostgres

/// Statements run prepared, each distinct one in a slot of its own, with values of exactly the declared types.
@Suite struct PreparedStatementsTests {
    @Test("placeholders are numbered and carry their value's type; a NULL's is left to PostgreSQL")
    func numbered() {
        #expect(
            PreparedStatements.numbered(
                "SELECT ? , ?, ?, ?, ?", binds: [.text("a"), .integer(1), .texts([]), .integers([]), .null])
                == "SELECT $1::text , $2::int8, $3::text[], $4::int8[], $5")
        #expect(PreparedStatements.numbered("UPDATE t SET a = ? WHERE b = ?") == "UPDATE t SET a = $1 WHERE b = $2")
    }

    @Test("queries and data changes are prepared; DDL, transaction control, advisory locks and long lists are not")
    func preparable() {
        for sql in [
            "SELECT 1", "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "DELETE FROM t",
            "WITH a AS (SELECT 1) SELECT 1",
        ] {
            #expect(PreparedStatements.isPreparable(sql), "\(sql)")
        }
        #expect(PreparedStatements.isPreparable("INSERT INTO t (a, b) VALUES (?, ?)"))
        #expect(PreparedStatements.isPreparable("SELECT a FROM t WHERE c = ? AND b IN (?, ?)"), "a short list")
        for sql in [
            "CREATE TABLE t (a int)", "BEGIN", "COMMIT", "SELECT pg_advisory_xact_lock(hashtext(?))",
            "SELECT a FROM t WHERE b IN (?, ?, ?, ?, ?)", "INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?)",
        ] {
            #expect(!PreparedStatements.isPreparable(sql), "\(sql)")
        }
    }

    @Test("one slot per SQL text and value types, kept for the process; its SQL is the typed, numbered text")
    func slots() throws {
        let sql = "SELECT ? AS spec_\(UUID().uuidString.prefix(8).lowercased())"
        let text = try #require(PreparedStatements.slot(sql, [.text("a")]))
        #expect(PreparedStatements.slot(sql, [.text("b")]) == text)
        let number = try #require(PreparedStatements.slot(sql, [.integer(1)]))
        #expect(number != text)
        #expect(
            PreparedStatements.slots.withLock { $0.sql[number] }
                == PreparedStatements.numbered(sql, binds: [.integer(1)]))
        #expect(PreparedStatements.capacity == 1_024)
    }

    @Test("on PostgreSQL: prepared on the connection under its slot's name, and every value type round-trips")
    func onPostgres() async throws {
        guard let store = try await StoreConformanceTests.store("postgres") else { return }
        let texts = (0..<300).map { "notification \($0) " + String(repeating: "é", count: $0) }
        let sql =
            "SELECT ?::text AS a, ?::int8 AS b, array_length(?::text[], 1) AS n, (?::text[])[300] AS last, cardinality(?::text[]) AS empty, (?::int8[])[2] AS second, COALESCE(?::text, 'absent') AS missing"
        let binds: [SQLValue] = [
            .text("plain"), .integer(-42), .texts(texts), .texts(texts), .texts([]), .integers([7, -9]), .null,
        ]
        let (rows, prepared) = try await store.database.withTransaction { tx in
            let rows = try await tx.query(sql, binds)
            let prepared = try await tx.query("SELECT name, statement FROM pg_prepared_statements", [])
            return (rows, prepared)
        }
        let row = try #require(rows.first)
        #expect(row["a"] == .text("plain") && row["b"] == .integer(-42) && row["n"] == .integer(300))
        #expect(row["last"] == .text(texts[299]) && row["empty"] == .integer(0) && row["second"] == .integer(-9))
        #expect(row["missing"] == .text("absent"))
        let slot = try #require(PreparedStatements.slot(sql, binds))
        #expect(prepared.contains { $0["name"] == .text("storekeeper_\(slot)") })
        // The same statement again, on whichever pooled connection: the same answer.
        for _ in 0..<5 { #expect(try await store.database.read(sql, binds).first == row) }
        try await store.close()
    }
}
