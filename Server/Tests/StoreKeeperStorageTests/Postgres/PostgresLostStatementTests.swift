import Foundation
import Logging
import PostgresNIO
import StoreKeeperStorage
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

@testable import StoreKeeperPostgres

/// A statement written to a pooled connection just after it closed is never answered by PostgresNIO (the write goes
/// nowhere and its promise is never completed). Work on such a connection still ends, at once, as
/// ``DatabaseUnavailable``: a request never hangs on it, and neither does the server's shutdown.
@Suite struct PostgresLostStatementTests {
    @Test("a statement written to a connection that has closed ends as unavailable instead of waiting for ever")
    func lostStatement() async throws {
        // The shared test server: only this test's own connection is cut.
        guard let url = try await TestDatabases.freshPostgresDatabase() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL required but not configured") }
            return
        }
        let database = try PostgresStoreDatabase.connect(url: url, acquireTimeout: .seconds(5))
        defer { Task { try? await database.close() } }

        // How far the work got, and how long the statement under test took once sent.
        let phase = Mutex("leasing")
        let ending = Mutex<(String, Duration)?>(nil)
        Task {
            let sent = Mutex(ContinuousClock.now)
            let outcome: String
            do {
                _ = try await database.withTransaction { tx in
                    let connection = try #require(tx as? PostgresStoreTransaction).connection
                    phase.withLock { $0 = "reading its pid" }
                    let pid = try await tx.query("SELECT pg_backend_pid()::text AS pid", [])
                    let text = try #require(pid.first?["pid"].flatMap { if case .text(let t) = $0 { t } else { nil } })
                    phase.withLock { $0 = "terminating it" }
                    _ = try await database.read("SELECT pg_terminate_backend(\(Int(text) ?? 0))::text AS done", [])
                    phase.withLock { $0 = "waiting for the close" }
                    let deadline = ContinuousClock.now + .seconds(30)
                    while !connection.isClosed, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    try await Task.sleep(for: .milliseconds(200))
                    // Past the check our statements make first, as when the connection closes just after it.
                    // (Unwatched, this statement is never answered: the test then ends with nothing.)
                    phase.withLock { $0 = "sent on the closed connection" }
                    sent.withLock { $0 = ContinuousClock.now }
                    try await database.watch.run(on: connection) {
                        for try await _ in try await connection.query("SELECT 1", logger: Logger(label: "test")) {}
                    }
                }
                outcome = "answered"
            } catch { outcome = error is DatabaseUnavailable ? "unavailable" : "other: \(error)" }
            let took = ContinuousClock.now - sent.withLock { $0 }
            ending.withLock { $0 = (outcome, took) }
        }
        let deadline = ContinuousClock.now + .seconds(90)
        while ending.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let ended = ending.withLock { $0 }
        #expect(ended?.0 == "unavailable", "\(String(describing: ended)), last at: \(phase.withLock { $0 })")
        #expect((ended?.1 ?? .seconds(90)) < .seconds(5), "the statement took \(String(describing: ended?.1))")
        #expect(database.watch.isIdle, "a statement failed by its connection's close is watched no longer")
    }
}
