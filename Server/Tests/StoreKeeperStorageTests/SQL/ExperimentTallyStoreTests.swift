import Foundation
import StoreKeeperStorage
import TestDatabaseSupport
import TestSupport
import Testing

/// Enrolments recorded in bulk, and an experiment's tally moved by rows: each enrolment once with one event, each
/// row's change counted once, and a writer that lost the race writes nothing.
@Suite struct ExperimentTallyStoreTests {
    static let project = StoreConformanceTests.project
    static let now = StoreConformanceTests.now

    static func enrolment(_ user: String, _ variant: String) -> EnrolmentRecord {
        EnrolmentRecord(
            projectID: project.id, experiment: "x", appUserKey: project.key(user), variant: variant, enrolledAt: now)
    }

    @Test("a bulk enrolment records each customer once, with one event each, however often they are named")
    func bulk() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            let first = (0..<900).map { Self.enrolment("u\($0)", $0 % 2 == 0 ? "a" : "b") }
            // Named twice in one call (within one statement and across two), then again in a second call.
            #expect(
                try await store.experiments.enrol(all: first + first[0..<3] + first[850..<900]) == 900, "\(executor)")
            #expect(try await store.experiments.enrol(all: Array(first[0..<10]) + [Self.enrolment("late", "a")]) == 1)
            #expect(try await !store.experiments.enrol(Self.enrolment("u1", "a")))
            let enrolled = try await store.experiments.enrolments(projectID: Self.project.id, experiment: "x")
            #expect(enrolled.count == 901)
            #expect(enrolled.first { $0.appUserKey == Self.project.key("u1") }?.variant == "b")
            let feed = try await EventFeedTests.drain(store, Self.project, from: nil, limit: 500)
            #expect(feed.ids.count == 901, "\(executor)")
            #expect(try await store.eventFeedEnd(in: Self.project) == feed.cursor)
            // Counted by UTC day in the database: a millisecond before midnight is the day before.
            var before = Self.enrolment("before", "a")
            before.enrolledAt = Self.now.addingTimeInterval(-0.001)
            var later = Self.enrolment("later", "b")
            later.enrolledAt = Self.now.addingTimeInterval(1.5 * 86_400)
            #expect(try await store.experiments.enrol(all: [before, later]) == 2)
            let today = Int(Self.now.timeIntervalSince1970 / 86_400)
            #expect(
                try await store.experiments.enrolmentDays(projectID: Self.project.id, experiment: "x") == [
                    EnrolmentDay(variant: "a", day: today - 1, count: 1),
                    EnrolmentDay(variant: "a", day: today, count: 451),
                    EnrolmentDay(variant: "b", day: today, count: 450),
                    EnrolmentDay(variant: "b", day: today + 1, count: 1),
                ], "\(executor)")
            try await store.close()
        }
    }

    @Test("rows replace their enrolment's row and move the sums by the difference; a stale writer writes nothing")
    func rows() async throws {
        for executor in TestDatabases.executors {
            guard let store = try await StoreConformanceTests.store(executor) else { continue }
            let start = try await store.experiments.resetExperimentTally(
                projectID: Self.project.id, experiment: "x", mark: "m", cursor: nil)
            let paid = ExperimentOutcomeRow(
                appUserKey: "k1", variant: "a", counted: true, evidenced: true, converted: true,
                revenueMicros: 9_990_000, proceedsMicros: 6_993_000)
            let guest = ExperimentOutcomeRow(appUserKey: "k2", variant: "b", counted: true, evidenced: false)
            let cursor = EventFeedCursor(transaction: 1, id: 7)
            let once = try #require(
                try await store.experiments.commitExperimentRows(
                    [paid, guest, paid], projectID: Self.project.id, experiment: "x", expected: start,
                    cursor: cursor, ready: true))
            #expect(once.variants["a"]?.enrolled == 1 && once.variants["a"]?.revenueMicros == 9_990_000)
            #expect(once.variants["b"]?.withoutEvidence == 1)
            // The same rows again from the tally before: another writer moved it, so nothing is written.
            #expect(
                try await store.experiments.commitExperimentRows(
                    [paid], projectID: Self.project.id, experiment: "x", expected: start, cursor: cursor, ready: true)
                    == nil)
            // k2 bought after all, and k1's purchase was refunded.
            var refunded = paid
            refunded.revenueMicros = 0
            refunded.refunds = 1
            var bought = paid
            bought.appUserKey = "k2"
            bought.variant = "b"
            let moved = try #require(
                try await store.experiments.commitExperimentRows(
                    [refunded, bought], projectID: Self.project.id, experiment: "x", expected: once, cursor: cursor,
                    ready: true))
            #expect(moved.variants["a"]?.enrolled == 1 && moved.variants["a"]?.revenueMicros == 0)
            #expect(moved.variants["a"]?.refunds == 1)
            #expect(moved.variants["b"]?.withoutEvidence == 0 && moved.variants["b"]?.enrolled == 1)
            #expect(try await store.experiments.experimentTally(projectID: Self.project.id, experiment: "x") == moved)
            // A reset empties the rows: counting them again starts from nothing.
            let again = try await store.experiments.resetExperimentTally(
                projectID: Self.project.id, experiment: "x", mark: "m2", cursor: nil)
            #expect(again.variants.isEmpty && !again.ready && again.generation != moved.generation)
            // A writer of the generation before the reset writes nothing into the new one.
            #expect(
                try await store.experiments.commitExperimentRows(
                    [paid], projectID: Self.project.id, experiment: "x", expected: moved, cursor: cursor, ready: true)
                    == nil)
            let recounted = try #require(
                try await store.experiments.commitExperimentRows(
                    [refunded], projectID: Self.project.id, experiment: "x", expected: again, cursor: nil,
                    ready: true))
            #expect(recounted.variants["a"] == moved.variants["a"] && recounted.variants["b"] == nil)
            try await store.close()
        }
    }
}
