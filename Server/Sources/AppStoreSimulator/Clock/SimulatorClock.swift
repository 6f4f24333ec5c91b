public import Foundation
import Synchronization

/// Where the simulator gets "now". Time is a dependency: tests use ``ManualClock``; a running simulator uses
/// ``SystemClock``. Sandbox acceleration is not in the clock but in the period lengths (see ``SandboxRate``),
/// exactly as in Apple's sandbox, where a "month" lasts five real minutes.
public protocol SimulatorClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The machine's clock.
public struct SystemClock: SimulatorClock {
    /// Makes the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to.
public final class ManualClock: SimulatorClock {
    private let current: Mutex<Date>

    /// Makes a clock.
    /// - Parameter start: The first instant.
    public init(start: Date = Date(timeIntervalSince1970: 1_735_689_600)) {
        current = Mutex(Self.wholeMilliseconds(start))
    }

    /// `date` floored to a whole millisecond. The clock stands still, so evidence stamped "now" (in Apple's whole
    /// milliseconds, rounded) must not land after "now" itself: a purchase half a millisecond in the future is not
    /// yet in force for a server on this clock until the clock moves.
    static func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// The current instant.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward.
    /// - Parameter seconds: How far (negative values are ignored: time does not run backwards).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = Self.wholeMilliseconds($0.addingTimeInterval(max(0, seconds))) }
    }

    /// Moves the clock to an instant, if it is later than now.
    /// - Parameter date: The instant.
    public func advance(to date: Date) {
        current.withLock { $0 = max($0, Self.wholeMilliseconds(date)) }
    }
}
