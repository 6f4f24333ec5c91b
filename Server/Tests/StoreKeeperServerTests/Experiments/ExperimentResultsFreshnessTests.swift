import Foundation
import TestSupport
import Testing

/// An experiment's results count every purchase committed before they were asked for. On PostgreSQL the event
/// feed's horizon stays below any transaction still running, so a results read right after a purchase, while an
/// older transaction is open, used to answer from before the purchase (seen once in the whole suite under load):
/// the read now waits, up to ExperimentTallier.freshnessWait, until the horizon passes what was committed.
@Suite struct ExperimentResultsFreshnessTests {
    typealias E2E = ServerEndToEndTests
    typealias Tally = ExperimentTallyTests

    @Test("a purchase committed while an older transaction is still open is in the next results read")
    func readYourPurchase() async throws {
        try await E2E.withServers("postgres") { h, client, store, _ in
            try await ExperimentsEndToEndTests.setUp(client)
            let variant = try #require(try await ExperimentsEndToEndTests.variant(client, "fresh-0"))
            let built = try await Tally.counts(client)
            #expect(built[variant]?.conversions == 0)
            // A transaction with an id, begun before the purchase and open for two seconds after it.
            let started = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await store.database.withTransaction { tx in
                    try await tx.query("SELECT pg_current_xact_id()::text AS id", [])
                    started.continuation.yield()
                    try await tx.query("SELECT pg_sleep(2)::text AS slept", [])
                }
            }
            var waiting = started.stream.makeAsyncIterator()
            _ = await waiting.next()
            #expect(try await client.buy(h, "premium.monthly", customer: "fresh-0").status == 200)
            let read = try await Tally.counts(client)
            #expect(read[variant]?.conversions == 1, "\(read)")
            try await holder.value
        }
    }
}
