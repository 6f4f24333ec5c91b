import Foundation
import StoreKeeperKit
import Synchronization

/// A device clock a test moves: the wall clock as a user would, uptime as time passing, the boot as a restart.
final class TestDeviceClock: DeviceClock {
    struct Reading {
        var now: Date
        var uptime: TimeInterval
        var bootID: String
    }

    let reading: Mutex<Reading>

    init(now: Date = Date(), uptime: TimeInterval = 1_000, bootID: String = "boot-1") {
        reading = Mutex(Reading(now: now, uptime: uptime, bootID: bootID))
    }

    var now: Date { reading.withLock { $0.now } }
    var uptime: TimeInterval { reading.withLock { $0.uptime } }
    var bootID: String { reading.withLock { $0.bootID } }

    /// Time passes: both clocks move.
    func pass(_ seconds: TimeInterval) {
        reading.withLock {
            $0.now.addTimeInterval(seconds)
            $0.uptime += seconds
        }
    }

    /// The user sets the wall clock; uptime does not notice.
    func setWallClock(by seconds: TimeInterval) { reading.withLock { $0.now.addTimeInterval(seconds) } }

    /// The device restarts `after` seconds: a new boot whose uptime starts near zero.
    func reboot(after seconds: TimeInterval) {
        reading.withLock {
            $0.now.addTimeInterval(seconds)
            $0.uptime = 30
            $0.bootID += "+"
        }
    }
}
