public import Foundation

/// The server's clock at an answer, tied to the device's elapsed-time clock at the moment the answer arrived.
/// Every decision is made at ``trustedNow(_:)``: the server's time plus the time elapsed since, never the
/// device's wall clock alone.
public struct ClockAnchor: Codable, Sendable, Hashable {
    /// The server's `request_date`.
    public var serverDate: Date
    /// The device's ``DeviceClock/uptime`` when the answer arrived.
    public var uptime: TimeInterval
    /// The boot that uptime belongs to.
    public var bootID: String
    /// The device's wall clock when the answer arrived (used only across a reboot, and only forward).
    public var deviceDate: Date

    /// Anchors `serverDate` to the device's clocks now.
    public init(serverDate: Date, clock: any DeviceClock) {
        self.serverDate = serverDate
        self.uptime = clock.uptime
        self.bootID = clock.bootID
        self.deviceDate = clock.now
    }

    /// The server's time now, as well as the device can tell it; `nil` when it cannot.
    ///
    /// Within the boot of the answer, the server's time plus uptime elapsed: moving the wall clock changes
    /// nothing. After a reboot uptime restarts, so the wall clock's elapsed time is used, and only when it is at
    /// least the uptime of the new boot (the device cannot have booted before the answer): a wall clock set back
    /// gives `nil` — unknown, so the server must be asked — never a longer access.
    public func trustedNow(_ clock: any DeviceClock) -> Date? {
        let current = clock.uptime
        if clock.bootID == bootID, current >= uptime {
            return serverDate.addingTimeInterval(current - uptime)
        }
        let elapsed = clock.now.timeIntervalSince(deviceDate)
        guard elapsed >= current else { return nil }
        return serverDate.addingTimeInterval(elapsed)
    }
}
