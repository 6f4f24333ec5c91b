import Foundation

/// The machine-wide CPU counters of Linux's `/proc/stat` (its first, `cpu`, line), so a load report can say
/// how much of the machine the measurement actually had: on a shared virtual machine the host takes CPU away
/// from time to time ("steal"), and a figure measured then is not comparable with one measured without it.
public struct HostCPU: Equatable, Sendable {
    /// Clock ticks spent busy (user, nice, system, irq, softirq).
    public var busy: UInt64
    /// Clock ticks idle (idle and iowait).
    public var idle: UInt64
    /// Clock ticks the hypervisor ran something else while this machine wanted to run.
    public var steal: UInt64

    /// Makes a sample.
    public init(busy: UInt64, idle: UInt64, steal: UInt64) {
        self.busy = busy
        self.idle = idle
        self.steal = steal
    }

    /// Reads the counters from the `cpu` line of `/proc/stat` text.
    /// - Parameter stat: The contents of `/proc/stat`.
    /// - Returns: The counters, or `nil` when the text has no well-formed `cpu` line.
    public static func parse(_ stat: String) -> HostCPU? {
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let words = line.split(separator: " ").dropFirst()
        let fields = words.compactMap { UInt64($0) }
        guard fields.count >= 4, fields.count == words.count else { return nil }
        // user nice system idle iowait irq softirq steal (older kernels stop early: the rest count as zero)
        let value = { (index: Int) -> UInt64 in index < fields.count ? fields[index] : 0 }
        return HostCPU(
            busy: value(0) + value(1) + value(2) + value(5) + value(6), idle: value(3) + value(4), steal: value(7))
    }

    /// The counters now, or `nil` where there is no `/proc/stat` (not Linux).
    public static func sample() -> HostCPU? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// How the machine's CPU time between two samples was spent.
    public struct Share: Equatable, Sendable {
        /// Percent of all CPU time taken by the host (steal).
        public var stealPercent: Double
        /// Percent of all CPU time left idle.
        public var idlePercent: Double

        /// A share.
        public init(stealPercent: Double, idlePercent: Double) {
            self.stealPercent = stealPercent
            self.idlePercent = idlePercent
        }
    }

    /// The share of each kind of time between `earlier` and this sample (`nil` when no time passed).
    public func share(since earlier: HostCPU) -> Share? {
        let busy = busy &- earlier.busy, idle = idle &- earlier.idle, steal = steal &- earlier.steal
        let total = busy &+ idle &+ steal
        guard total > 0, busy <= total, idle <= total, steal <= total else { return nil }
        return Share(stealPercent: Double(steal) * 100 / Double(total), idlePercent: Double(idle) * 100 / Double(total))
    }
}
