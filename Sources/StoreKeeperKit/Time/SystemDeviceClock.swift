public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The real device's clocks: the wall clock, time since boot including sleep (`CLOCK_MONOTONIC` on Apple
/// platforms, `CLOCK_BOOTTIME` on Linux) and the kernel's boot session identifier.
public struct SystemDeviceClock: DeviceClock {
    /// The system clocks.
    public init() {}

    /// The wall clock.
    public var now: Date { Date() }

    /// Seconds since boot, counting sleep.
    public var uptime: TimeInterval {
        var spec = timespec()
        #if canImport(Darwin)
            clock_gettime(CLOCK_MONOTONIC, &spec)
        #else
            clock_gettime(CLOCK_BOOTTIME, &spec)
        #endif
        return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1e9
    }

    /// The kernel's identifier of this boot (`kern.bootsessionuuid`, `/proc/sys/kernel/random/boot_id`).
    public var bootID: String {
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else { return "" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return "" }
            return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            return text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        #endif
    }
}
