import Foundation
import StoreKeeperPostgres
import StoreKeeperSQLite
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Where SQLite and PostgreSQL differ is decided in the adapters, each a ``SQLDialect``: the shared storage code
/// states each statement once, asks the dialect how to spell what differs and how to run a batch of rows, and
/// never branches on what a database can do.
@Suite struct SQLDialectTests {
    /// The branches left, each with why: the write's claim reads what its own parts wrote in one PostgreSQL
    /// statement, and its types are the store's own (issue 71, item 6, moves it into the adapter).
    static let remaining: Set<String> = [
        "SQLStore+CombinedStatements.swift: guard tx.dialect.claimsInOneStatement else {"
    ]

    @Test("no storage source branches on a database's capability or names a database, but the listed")
    func noCapabilityBranch() throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources/StoreKeeperStorage")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var read = 0
        var found: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            read += 1
            let asks = /\b(bindsArrays|locksRows|groupsCommits)\b|dialect\s*[!=]=|[!=]=\s*\.(postgres|sqlite)\b/
            let branches = /(if|guard|while)\s[^{\n]*(dialect|hearsAllChangesInProcess)/
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.contains(asks) || trimmed.contains(branches)
                    || trimmed.contains(/case\s+\.(postgres|sqlite)\b/)
                {
                    found.append("\(file.lastPathComponent): \(trimmed)")
                }
            }
        }
        #expect(read > 80, "the storage sources were read: \(read)")
        #expect(Set(found) == Self.remaining, "capability branches in shared storage code: \(found)")
    }

    @Test("each adapter spells what differs its way")
    func spellings() {
        let sqlite: any SQLDialect = SQLiteDialect()
        let postgres: any SQLDialect = PostgresDialect()
        #expect(sqlite.hearsAllChangesInProcess && !postgres.hearsAllChangesInProcess)
        #expect(sqlite.rowLock.isEmpty && postgres.rowLock == " FOR UPDATE")
        #expect(sqlite.storageTuning(["x"]).isEmpty && postgres.storageTuning(["x"]) == ["x"])
        #expect(sqlite.changeAnnouncement(["x"]).isEmpty && postgres.changeAnnouncement(["x"]) == ["x"])
        #expect(sqlite.autoIncrementKey.contains("AUTOINCREMENT"))
        #expect(postgres.jsonArray(of: "alias").contains("json_agg(alias)"))
        #expect(sqlite.groupCommit(.standard) == .off && postgres.groupCommit(.standard) == .standard)
        #expect(sqlite.tryLock("'k'") == "1" && postgres.tryLock("'k'").contains("pg_try_advisory_xact_lock"))
    }

    /// Keys with their numbers (`k0007` → 7, plus `plus`).
    static func numbers(_ keys: ArraySlice<String>, plus: Int64) -> SQLRowSet {
        SQLRowSet("b", columns: ["k", "n"], rows: keys.map { [.text($0), .integer(Int64($0.dropFirst())! + plus)] })
    }

    @Test(
        "a batch of rows is written, upserted, read, selected and deleted alike on both databases, past SQLite's chunk",
        arguments: TestDatabases.backends)
    func batches(_ backend: String) async throws {
        guard let store = try await StoreConformanceTests.store(backend) else { return }
        let database = store.database
        let keys = (0..<1_200).map { String(format: "k%04d", $0) }
        let upsert =
            "INSERT INTO batch_probe (k, n) SELECT k, n FROM b WHERE true ON CONFLICT (k) DO UPDATE SET n = excluded.n"
        let (sum, read, selected, remaining) = try await database.withTransaction { tx in
            try await tx.query("CREATE TABLE batch_probe (k TEXT PRIMARY KEY, n INTEGER NOT NULL)", [])
            try await tx.query("CREATE TABLE batch_echo (k TEXT NOT NULL)", [])
            // Two statements in one run; the second overwrites half of the first's keys' numbers (an upsert).
            try await tx.dialect.run(
                [
                    SQLBatchStatement(over: Self.numbers(keys[...], plus: 0), upsert),
                    SQLBatchStatement(
                        over: SQLRowSet("e", column: "k", texts: Array(keys[..<3])),
                        "INSERT INTO batch_echo (k) SELECT k || ? FROM e", [.text("!")]),
                    SQLBatchStatement(over: SQLRowSet("z", column: "k", texts: []), "DELETE FROM batch_probe"),
                ], in: tx)
            try await tx.dialect.run(
                [SQLBatchStatement(over: Self.numbers(keys[600...], plus: 10_000), upsert)], in: tx)
            let sum = try await tx.query("SELECT sum(n) AS s, count(*) AS c FROM batch_probe", []).first
            let read = try await tx.dialect.rows(
                SQLBatchStatement(
                    over: SQLRowSet("q", column: "k", texts: Array(keys[595..<605]) + ["absent"]),
                    "SELECT p.k, p.n FROM q JOIN batch_probe p ON p.k = q.k WHERE p.n > ?", [.integer(598)]), in: tx)
            let selected = try await tx.dialect.select(
                "SELECT k FROM batch_probe", where: "k", in: Array(keys[1_000...]) + ["absent"], tx: tx)
            try await tx.dialect.delete(from: "batch_probe", where: "k", in: Array(keys[..<1_100]), tx: tx)
            let remaining = try await tx.query("SELECT count(*) AS c FROM batch_probe", []).first?["c"]?.int
            let echoed = try await tx.query("SELECT k FROM batch_echo ORDER BY k", []).compactMap { $0["k"]?.string }
            #expect(echoed == ["k0000!", "k0001!", "k0002!"], "\(backend)")
            return (sum, read, selected, remaining)
        }
        let expected = (0..<1_200).reduce(Int64(0)) { $0 + Int64($1) + ($1 >= 600 ? 10_000 : 0) }
        #expect(sum?["s"]?.int == expected && sum?["c"]?.int == 1_200, "\(backend): \(String(describing: sum))")
        let pairs = read.compactMap { row in row["k"]?.string.map { ($0, row["n"]?.int ?? -1) } }.sorted { $0.0 < $1.0 }
        #expect(pairs.map(\.0) == ["k0599", "k0600", "k0601", "k0602", "k0603", "k0604"], "\(backend)")
        #expect(pairs.last?.1 == 10_604, "\(backend)")
        #expect(Set(selected.compactMap { $0["k"]?.string }) == Set(keys[1_000...]), "\(backend)")
        #expect(remaining == 100, "\(backend)")
        try await store.close()
    }

    @Test("PostgreSQL refuses a batch column that mixes texts with integers, naming the batch and the column")
    func mixedColumn() async throws {
        guard let store = try await StoreConformanceTests.store("postgres") else { return }
        let batch = SQLRowSet("m", columns: ["k"], rows: [[.text("a")], [.integer(1)]])
        await #expect {
            try await store.database.withTransaction { tx in
                try await tx.dialect.run([SQLBatchStatement(over: batch, "SELECT k FROM m")], in: tx)
            }
        } throws: { error in
            "\(error)".contains("m's column k")
        }
        try await store.close()
    }
}
