import Foundation
import StoreKeeperStorage
import TestSupport
import Testing

/// Where SQLite and PostgreSQL differ is decided in one place, ``SQLDialect``: shared storage code asks the
/// dialect (`bindsArrays`, `locksRows`, `rowLock`…) and never compares dialects itself.
@Suite struct SQLDialectTests {
    @Test func noStorageSourceComparesDialectsOutsideSQLDialect() throws {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var read = 0
        var found: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            guard file.lastPathComponent != "SQLDialect.swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            read += 1
            if text.contains(/dialect\s*[!=]=|[!=]=\s*\.(postgres|sqlite)\b|case\s+\.(postgres|sqlite)\s*:/) {
                found.append(file.lastPathComponent)
            }
        }
        #expect(read > 100, "the sources were read")
        #expect(found.isEmpty, "dialects compared outside SQLDialect: \(found)")
    }

    @Test func sqliteAndPostgresAnswerEachQuestionTheirWay() {
        #expect(SQLDialect.postgres.bindsArrays && !SQLDialect.sqlite.bindsArrays)
        #expect(SQLDialect.postgres.locksRows && !SQLDialect.sqlite.locksRows)
        #expect(SQLDialect.sqlite.hearsAllChangesInProcess && !SQLDialect.postgres.hearsAllChangesInProcess)
        #expect(SQLDialect.sqlite.rowLock.isEmpty && SQLDialect.postgres.rowLock == " FOR UPDATE")
        #expect(SQLDialect.sqlite.storageTuning(["x"]).isEmpty && SQLDialect.postgres.storageTuning(["x"]) == ["x"])
        #expect(SQLDialect.sqlite.changeAnnouncement(["x"]).isEmpty)
        #expect(SQLDialect.sqlite.autoIncrementKey.contains("AUTOINCREMENT"))
        #expect(SQLDialect.postgres.jsonArray(of: "alias").contains("json_agg(alias)"))
    }
}
