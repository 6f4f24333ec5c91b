import Logging
import StoreKeeperStorage
import Testing

@testable import StoreKeeperServer

/// A background loop that keeps failing (the database is away) pauses longer each time, up to half a minute, and
/// goes back to its interval after a round that worked.
@Suite struct WorkLoopTests {
    @Test func thePauseDoublesWithEachFailureInARowUpToThirtySeconds() {
        let interval = Duration.milliseconds(200)
        #expect(WorkLoop.pause(after: 0, interval: interval) == interval)
        #expect(WorkLoop.pause(after: 1, interval: interval) == .milliseconds(400))
        #expect(WorkLoop.pause(after: 3, interval: interval) == .milliseconds(1_600))
        #expect(WorkLoop.pause(after: 8, interval: interval) == .seconds(30))
        #expect(WorkLoop.pause(after: 1_000, interval: interval) == .seconds(30), "no overflow after a long outage")
        #expect(WorkLoop.pause(after: 2, interval: .seconds(60)) == .seconds(60), "never shorter than the interval")
    }

    @Test func onlyADatabaseOutageLengthensThePauseAndAnyOtherFailureEndsTheStreak() {
        var failures = WorkLoop.Failures()
        let logger = Logger(label: "work-loop-tests")
        failures.failed(DatabaseUnavailable("stopped"), logger: logger, message: "round failed")
        failures.failed(DatabaseUnavailable("stopped"), logger: logger, message: "round failed")
        #expect(failures.count == 2 && failures.pause(interval: .seconds(1)) == .seconds(4))
        failures.failed(CancellationError(), logger: logger, message: "round failed")
        #expect(failures.count == 0 && failures.pause(interval: .seconds(1)) == .seconds(1))
        failures.failed(DatabaseUnavailable("stopped"), logger: logger, message: "round failed")
        failures.succeeded()
        #expect(failures.count == 0)
    }
}
