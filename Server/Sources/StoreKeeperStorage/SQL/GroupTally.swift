import Synchronization

/// How PostgreSQL group commit went: writes committed together in a group, and writes of groups that had to
/// run one at a time (with the last reason), for tests and the load check.
public final class GroupTally: Sendable {
    /// The counts.
    public struct Counts: Sendable, Hashable {
        /// Writes committed in a shared transaction.
        public var together = 0
        /// Writes of groups that fell back to one transaction each.
        public var alone = 0
        /// Why the last group fell back.
        public var lastReason: String?
    }

    private let counts = Mutex(Counts())

    /// Makes an empty tally.
    public init() {}

    /// The counts so far.
    public var current: Counts { counts.withLock { $0 } }

    func count(together writes: Int) {
        counts.withLock { $0.together += writes }
    }

    func count(alone writes: Int, because error: any Error) {
        counts.withLock {
            $0.alone += writes
            $0.lastReason = String(describing: type(of: error))
        }
    }
}
