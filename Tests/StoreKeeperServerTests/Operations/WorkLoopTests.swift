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
}
