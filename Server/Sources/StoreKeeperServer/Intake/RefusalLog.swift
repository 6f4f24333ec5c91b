import Foundation
import Synchronization

/// The newest refused notifications of this process, in memory only: a refusal changes no stored state (a flood of
/// forgeries cannot grow the database), and the log holds at most ``capacity`` entries, dropping the oldest.
final class RefusalLog: Sendable {
    /// How many refusals are kept.
    let capacity: Int
    private let entries = Mutex<[RefusedNotification]>([])

    /// An empty log keeping at most `capacity` refusals.
    init(capacity: Int = 500) { self.capacity = max(1, capacity) }

    /// Keeps a refusal, forgetting the oldest past the capacity.
    func add(_ refusal: RefusedNotification) {
        entries.withLock { list in
            list.append(refusal)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    /// The newest refusals claiming one of `bundleIDs`, newest first.
    func recent(bundleIDs: [String], limit: Int) -> [RefusedNotification] {
        let wanted = Set(bundleIDs)
        return entries.withLock { list in
            Array(list.reversed().lazy.filter { wanted.contains($0.claimedBundleID) }.prefix(limit))
        }
    }
}
