import Foundation
import StoreKeeperKit

/// A device clock a spec moves: the wall clock as a user would, uptime as time passing, the boot as a restart.
/// (The server package's live tests have their own; this one locks with `NSLock`, available on every OS the SDK
/// supports.)
final class TestDeviceClock: DeviceClock, @unchecked Sendable {
    struct Reading {
        var now: Date
        var uptime: TimeInterval
        var bootID: String
    }

    private let lock = NSLock()
    private var reading: Reading

    init(now: Date = Date(), uptime: TimeInterval = 1_000, bootID: String = "boot-1") {
        reading = Reading(now: now, uptime: uptime, bootID: bootID)
    }

    var now: Date { lock.withLock { reading.now } }
    var uptime: TimeInterval { lock.withLock { reading.uptime } }
    var bootID: String { lock.withLock { reading.bootID } }

    /// Time passes: both clocks move.
    func pass(_ seconds: TimeInterval) {
        lock.withLock {
            reading.now.addTimeInterval(seconds)
            reading.uptime += seconds
        }
    }

    /// The user sets the wall clock; uptime does not notice.
    func setWallClock(by seconds: TimeInterval) { lock.withLock { reading.now.addTimeInterval(seconds) } }

    /// The device restarts `after` seconds: a new boot whose uptime starts near zero.
    func reboot(after seconds: TimeInterval) {
        lock.withLock {
            reading.now.addTimeInterval(seconds)
            reading.uptime = 30
            reading.bootID += "+"
        }
    }
}
