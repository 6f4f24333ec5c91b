import Foundation
import StoreKeeperPostgres
import StoreKeeperStorage
import Synchronization
import TestDatabaseSupport
import TestSupport
import Testing

/// PostgreSQL going away is an error, not a wait: work in flight when the server stops fails at once as
/// ``DatabaseUnavailable`` (a transaction never waits for the answer to a `ROLLBACK` on a closed connection), work
/// begun while it is down fails after the acquire timeout, and work after it is back succeeds. The bounds leave
/// room for a whole-suite run, whose stalls last seconds; before, work in flight never ended.
@Suite struct PostgresOutageTests {
    /// How each unit of work ended: `ok`, or the error's description, with how long it took.
    final class Endings: Sendable {
        let all = Mutex<[Int: (String, Duration)]>([:])
        func wait(for count: Int, upTo limit: Duration) async -> [Int: (String, Duration)] {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline, all.withLock({ $0.count }) < count {
                try? await Task.sleep(for: .milliseconds(50))
            }
            return all.withLock { $0 }
        }
    }

    /// Starts unit of work `index` (a sleeping statement, a minute long for the first six, a second for the others:
    /// in a transaction, prepared or not, or a lone read).
    static func start(_ index: Int, on database: PostgresStoreDatabase, into endings: Endings) {
        Task {
            let began = ContinuousClock.now
            // The first six are stopped in flight: they sleep longer than the test waits for them.
            let seconds = index < 6 ? 60 : 1
            let sql =
                index % 2 == 0
                ? "SELECT pg_sleep(\(seconds))::text AS slept" : "select pg_sleep(\(seconds))::text as slept"
            let ending: String
            do {
                if index % 3 == 0 {
                    _ = try await database.read(sql, [])
                } else {
                    _ = try await database.withTransaction { tx in try await tx.query(sql, []) }
                }
                ending = "ok"
            } catch {
                ending = error is DatabaseUnavailable ? "unavailable" : "other: \(error)"
            }
            endings.all.withLock { $0[index] = (ending, ContinuousClock.now - began) }
        }
    }

    @Test("in flight, while down and after: unavailable at once, unavailable within the timeout, then answered")
    func stopAndStart() async throws {
        guard let postgres = try await ThrowawayPostgres.start() else {
            if TestDatabases.postgresRequired { Issue.record("PostgreSQL's binaries are required but not installed") }
            return
        }
        defer { postgres.destroy() }
        let database = try PostgresStoreDatabase.connect(url: postgres.url, acquireTimeout: .seconds(2))
        defer { Task { try? await database.close() } }
        // The first connection may take longer than the timeout while the whole suite loads the machine.
        var connected = false
        for _ in 0..<30 where !connected {
            connected = (try? await database.read("SELECT 1 AS one", [])) != nil
        }
        try #require(connected, "the test's PostgreSQL never answered")
        let endings = Endings()
        for index in 0..<6 { Self.start(index, on: database, into: endings) }
        try await Task.sleep(for: .milliseconds(400))
        try await postgres.stopImmediately()
        let inFlight = await endings.wait(for: 6, upTo: .seconds(40))
        #expect(inFlight.count == 6, "work in flight that never ended: \(Set(0..<6).subtracting(inFlight.keys))")
        for (index, (ending, took)) in inFlight {
            #expect(ending == "unavailable" && took < .seconds(30), "in flight \(index): \(ending) after \(took)")
        }

        for index in 6..<9 { Self.start(index, on: database, into: endings) }
        let whileDown = await endings.wait(for: 9, upTo: .seconds(40))
        for index in 6..<9 {
            let (ending, took) = whileDown[index] ?? ("never ended", .seconds(40))
            #expect(ending == "unavailable" && took < .seconds(30), "while down \(index): \(ending) after \(took)")
        }

        try await postgres.start()
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? await database.read("SELECT 1 AS one", [])) != nil
            if !answered { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(answered, "the database answers again once it is back")
        for index in 9..<15 { Self.start(index, on: database, into: endings) }
        let after = await endings.wait(for: 15, upTo: .seconds(20))
        for index in 9..<15 { #expect(after[index]?.0 == "ok", "after \(index): \(String(describing: after[index]))") }
    }
}
