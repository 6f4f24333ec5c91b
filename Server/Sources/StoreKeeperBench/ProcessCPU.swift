import Foundation

/// The CPU time (and resident memory) of one Linux process: the time it has used so far, summed over its threads from `/proc/<pid>/task/*/schedstat`
/// (nanoseconds), so a benchmark can charge a server process — and not itself — for the requests it answered.
public struct ProcessCPU: Sendable {
    /// The process.
    public var pid: Int32

    /// Reads the process `pid`.
    public init(pid: Int32) { self.pid = pid }

    /// Nanoseconds of CPU its live threads have used, or `nil` when the process is gone or this is not Linux.
    public func nanoseconds() -> UInt64? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total: UInt64 = 0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8) else {
                continue
            }
            total += Self.parse(text) ?? 0
        }
        return total
    }

    /// The process's resident memory in bytes (`VmRSS` of `/proc/<pid>/status`), or `nil` when unknown.
    public func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1_024
    }

    /// The on-CPU nanoseconds of one `schedstat` line (its first field).
    /// - Parameter schedstat: The file's text: `<on-cpu ns> <waiting ns> <timeslices>`.
    /// - Returns: The first field, or `nil` when it is not a number.
    public static func parse(_ schedstat: String) -> UInt64? {
        schedstat.split(separator: " ").first.flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
