public import Foundation

/// The device's clocks. The wall clock is the user's to move; the elapsed-time clock is not. StoreKeeperKit
/// decides with the server's clock plus elapsed time (see ``ClockAnchor``), so tests inject a clock whose wall
/// time they move to prove it changes nothing.
public protocol DeviceClock: Sendable {
    /// The wall clock (settable by the user: never trusted alone).
    var now: Date { get }
    /// Seconds since the device booted, counting time asleep; it only moves forward within one boot.
    var uptime: TimeInterval { get }
    /// An identifier of the current boot: ``uptime`` values compare only within one boot.
    var bootID: String { get }
}
