import Foundation
import StoreKeeperSQLite
import StoreKeeperStorage
import Testing

@testable import StoreKeeperServer

@Suite struct ReadinessTests {
    @Test("not ready on an older schema or before the workers start; ready once both hold")
    func readiness() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = SQLStore(database: try await SQLiteStoreDatabase.open(path: path))
        _ = try await store.migrate(projects: [:], through: SQLStore.schemaVersion - 1)
        let gate = StartupGate()
        let readiness = Readiness(store: store, gate: gate)
        #expect(
            await readiness.problems() == [
                "the database schema is version \(SQLStore.schemaVersion - 1); this build needs \(SQLStore.schemaVersion)",
                "the background workers have not started",
            ])
        #expect(try await readiness.response().status == .serviceUnavailable)
        _ = try await store.migrate()
        gate.open()
        #expect(await readiness.problems().isEmpty)
        #expect(try await readiness.response().status == .ok)
        try await store.close()
        #expect(await readiness.problems() == ["the database does not answer"])
    }
}
