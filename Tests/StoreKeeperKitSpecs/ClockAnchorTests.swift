import Foundation
import StoreKeeperKit
import Testing

/// Decisions use the server's clock plus elapsed time: the wall clock the user can move changes nothing within a
/// boot, and after a restart it can only shorten access, never lengthen it.
@Suite struct ClockAnchorTests {
    let server = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("within one boot, trusted time is the server's time plus uptime elapsed, whatever the wall clock says")
    func wallClockIgnored() {
        let clock = TestDeviceClock()
        let anchor = ClockAnchor(serverDate: server, clock: clock)
        clock.pass(600)
        #expect(anchor.trustedNow(clock) == server.addingTimeInterval(600))
        clock.setWallClock(by: 365 * 86_400)
        #expect(anchor.trustedNow(clock) == server.addingTimeInterval(600))
        clock.setWallClock(by: -2 * 365 * 86_400)
        #expect(anchor.trustedNow(clock) == server.addingTimeInterval(600))
    }

    @Test("after a restart the wall clock's elapsed time counts only when it is at least the new boot's uptime")
    func acrossReboot() {
        let clock = TestDeviceClock()
        let anchor = ClockAnchor(serverDate: server, clock: clock)
        clock.reboot(after: 3_600)
        #expect(anchor.trustedNow(clock) == server.addingTimeInterval(3_600))
        clock.setWallClock(by: -7_200)  // set back before the answer: elapsed time is unknown
        #expect(anchor.trustedNow(clock) == nil)
    }

    @Test("a saved anchor decodes to the same trusted time")
    func codable() throws {
        let clock = TestDeviceClock()
        let anchor = ClockAnchor(serverDate: server, clock: clock)
        let copy = try JSONDecoder().decode(ClockAnchor.self, from: try JSONEncoder().encode(anchor))
        clock.pass(42)
        #expect(copy.trustedNow(clock) == anchor.trustedNow(clock))
    }
}
