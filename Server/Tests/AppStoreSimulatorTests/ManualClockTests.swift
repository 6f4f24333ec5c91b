import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// The manual clock stands still between moves, so it keeps whole milliseconds: evidence stamped "now" (Apple's
/// whole milliseconds) is never after "now" itself, and a server on the same clock sees a purchase in force at once.
@Suite struct ManualClockTests {
    static func milliseconds(_ date: Date) -> Double { date.timeIntervalSince1970 * 1000 }

    @Test("start and every move land on a whole millisecond")
    func wholeMilliseconds() {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_543_413.536_7))
        #expect(Self.milliseconds(clock.now()) == Self.milliseconds(clock.now()).rounded(.down))
        #expect(Int64(Self.milliseconds(clock.now())) == 1_795_543_413_536)
        clock.advance(by: 0.000_6)
        #expect(Self.milliseconds(clock.now()) == Self.milliseconds(clock.now()).rounded(.down))
        clock.advance(to: Date(timeIntervalSince1970: 1_795_543_500.999_9))
        #expect(Int64(Self.milliseconds(clock.now())) == 1_795_543_500_999)
    }

    @Test("a purchase on a standing clock is not dated after the clock's now")
    func purchaseInForce() async throws {
        let h = try await SimulatorHarness()
        h.clock.advance(by: 0.000_7)
        let bought = try await h.simulator.purchase(bundleID: h.bundleID, productID: "premium.monthly", customerID: "c")
        let signed = Int64((bought.purchaseDate.timeIntervalSince1970 * 1000).rounded())
        #expect(signed <= Int64(Self.milliseconds(h.clock.now())))
    }
}
